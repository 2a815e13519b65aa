//! The `dotnet_sdk` plugin: one tool, `dotnet_sdk`, for what is installed and how the SDK is
//! chosen: SDKs and runtimes, templates and template packages, target frameworks, global.json.
//!
//! | action | runs | structured content |
//! |---|---|---|
//! | `Version` | `dotnet --version` | `{version}` |
//! | `Info` | `dotnet --info` | SDK, OS, host fields, `sdks`, `runtimes`, `globalJson` |
//! | `ListSdks` | `dotnet --list-sdks` | `{sdks[{version, path}], latest}` |
//! | `ListRuntimes` | `dotnet --list-runtimes` | `{runtimes[{name, version, path}]}` |
//! | `ListTemplates` | `dotnet new list [filter] [--language L] [--type T] [--tag G] [--author A] --columns-all [--debug:rebuild-cache]` | `{templates[], totalCount, truncated}` |
//! | `SearchTemplates` | `dotnet new search TERM [filters] --columns-all` | `{searchTerm, templates[], totalCount, truncated}` |
//! | `TemplateInfo` | `dotnet new SHORT --help [--language L] [--debug:rebuild-cache]` | `{shortName, template{name, options[]…}}` |
//! | `ListTemplatePacks` | `dotnet new uninstall` | `{packs[{id, version, details, templates[], uninstallCommand}]}` |
//! | `InstallTemplatePack` | `dotnet new install ID[::VERSION] [--nuget-source S] [--interactive] [--force]` | `{package, version, previousVersion, alreadyInstalled, templates[], lockInfo}` |
//! | `UninstallTemplatePack` | `dotnet new uninstall ID` | `{package, version, lockInfo}` |
//! | `FrameworkInfo` | `dotnet --list-sdks` (the table is built in) | `{frameworks[], latestRecommended, latestLts, installedSdks, asOf}` |
//! | `ConfigureGlobalJson` | nothing: edits global.json in place | `{path, created, changes[], content, lockInfo}` |
//! | `ClearTemplateCache` | `dotnet new list --columns-all --debug:rebuild-cache` | `{cacheRebuilt, templateCount, lockInfo}` |
//!
//! Every success carries `action` and `success: true`; every failure is the contract's error
//! envelope with `isError` (see `dotnet_support::errors`). Decisions where the reference server
//! was silent or wrong:
//!
//! - **Annotations.** The tool is not read-only (template packs, global.json); it is marked
//!   destructive because `UninstallTemplatePack` removes templates and `ConfigureGlobalJson`
//!   overwrites values (the previous ones are returned), which MCP does not count as additive;
//!   idempotent, because repeating a call leaves the same state; open-world, because searches and
//!   installs reach NuGet feeds. The read-only actions are named in the `action` description.
//! - **Caches.** This plugin keeps no cache: every call asks the CLI. The reference's cache
//!   control maps onto the one cache in play, the template engine's own: `forceReload` and
//!   `ClearTemplateCache` pass its `--debug:rebuild-cache` option. `CacheMetrics` is left out:
//!   with no cache there are no hits or misses to count.
//! - **Searching** asks NuGet.org (`dotnet new search`), as the CLI does; `ListTemplates` with a
//!   `filter` searches what is installed.
//! - **Template package versions** are passed as `id::version`, which every SDK since 6 reads
//!   (`id@version` only from 9.0.200). Exit code 106 is "already installed" only when the output
//!   says so; otherwise it is the failure it is.
//! - **Parameters** an action does not take are refused rather than ignored.
//! - **global.json** edits keep comments and formatting; values are checked (a full SDK version,
//!   a known `rollForward` policy, a known test runner) and a file the SDK could not read is
//!   refused rather than rewritten.
//! - **Locks.** Template pack installs, uninstalls and cache rebuilds take the host's `global`
//!   lock (the template engine's state is per user, shared by every SDK); a global.json edit locks
//!   its folder. Their structured content reports `lockInfo`.

mod global_json;
mod parse;
mod schema;

use dotnet_support::respond::Failure;
use std::path::{Path, PathBuf};

use dotnet_support::{
    errors::{ErrorResponse, ErrorResult, code},
    exec::{self, Command, ProgressKind, Ran},
    frameworks, listings,
    locking::{self, LockTarget},
    params::{Kind, Params, check},
    redact::redact_json,
    respond::{self, Presentation, Reply},
    settings::DotnetSettings,
    template_help, workspace,
};
use mcp_plugin_api::{
    CallContext, InitError, PluginContext, Tool, ToolOutcome, ToolSpec, export_plugin, locks::LockGuard,
};
use serde_json::{Value, json};

export_plugin! {
    name: "dotnet_sdk",
    version: env!("CARGO_PKG_VERSION"),
    tools: |ctx| Ok(vec![SdkTool::new(ctx)?.into()]),
}

dotnet_support::actions! {
    /// The actions of `dotnet_sdk`.
    pub enum Action {
        /// The SDK version in use in the working directory (`dotnet --version`).
        Version,
        /// Everything `dotnet --info` says: SDK, OS, host, SDKs, runtimes, global.json.
        Info,
        /// The installed SDKs (`dotnet --list-sdks`).
        ListSdks,
        /// The installed runtimes (`dotnet --list-runtimes`).
        ListRuntimes,
        /// The installed templates (`dotnet new list`), filtered.
        ListTemplates,
        /// Templates on NuGet.org (`dotnet new search`).
        SearchTemplates,
        /// One template's options (`dotnet new <template> --help`).
        TemplateInfo,
        /// The template packages the user installed (`dotnet new uninstall`).
        ListTemplatePacks,
        /// Installs a template package (`dotnet new install`).
        InstallTemplatePack,
        /// Uninstalls a template package (`dotnet new uninstall <id>`).
        UninstallTemplatePack,
        /// Target frameworks: LTS or STS, support dates, the one to use.
        FrameworkInfo,
        /// Sets global.json's SDK version, roll-forward policy, prerelease use or test runner.
        ConfigureGlobalJson,
        /// Rebuilds the template engine's cache (`--debug:rebuild-cache`).
        ClearTemplateCache,
    }
}

type Outcome = Result<Reply, Failure>;

/// The `dotnet_sdk` tool.
pub struct SdkTool {
    settings: DotnetSettings,
    plugin: PluginContext,
}

impl SdkTool {
    /// Reads the dotnet settings (see `dotnet_support::settings`); a malformed one refuses the plugin.
    pub fn new(ctx: &PluginContext) -> Result<Self, InitError> {
        Ok(Self { settings: DotnetSettings::from_context(ctx)?, plugin: ctx.clone() })
    }
}

impl Tool for SdkTool {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new(
            "dotnet_sdk",
            "The .NET SDK installation: the SDK version in use, `dotnet --info`, installed SDKs and runtimes, \
             templates (list installed ones, search NuGet.org, show a template's options), template packages \
             (list, install, uninstall), target frameworks (which are LTS, which are still supported, which to \
             use) and global.json (pin the SDK version, roll-forward policy, test runner; comments are kept).",
        )
        .title(".NET SDK & Templates")
        .input_schema(schema::input())
        .output_schema(schema::output())
        .read_only(false)
        .destructive(true)
        .idempotent(true)
        .open_world(true)
    }

    async fn call(&self, args: Value, ctx: CallContext) -> ToolOutcome {
        let presentation = Presentation::of(&ctx);
        Ok(respond::finish(self.dispatch(&args, &ctx).await, presentation))
    }
}

/// The structured content of a success: `action`, `success: true` and `fields`, redacted.
fn structured(action: Action, fields: Value) -> Value {
    let mut value = json!({ "action": action.name(), "success": true });
    if let (Some(object), Value::Object(fields)) = (value.as_object_mut(), fields) {
        object.extend(fields);
    }
    redact_json(&mut value);
    value
}

/// `text` if `count` is one, else `plural`, after the count.
fn counted(count: usize, text: &str, plural: &str) -> String {
    format!("{count} {}", if count == 1 { text } else { plural })
}

/// The lock's `lockInfo` as an extra field for a failure.
fn lock_extra(guard: &LockGuard) -> Option<Value> {
    Some(json!({ "lockInfo": locking::lock_info_json(guard.info()) }))
}

impl SdkTool {
    async fn dispatch(&self, args: &Value, ctx: &CallContext) -> Outcome {
        let params = Params::new(args);
        let action = params.action(Action::parse)?;
        params.allow_only(action.name(), schema::parameters(action))?;
        let cwd = workspace::working_directory(
            params.opt("workingDirectory", Kind::Path)?,
            self.settings.working_directory.as_deref(),
        )?;
        match action {
            Action::Version => self.version(ctx, &cwd).await,
            Action::Info => self.info(ctx, &cwd).await,
            Action::ListSdks => self.list_sdks(ctx, &cwd).await,
            Action::ListRuntimes => self.list_runtimes(ctx, &cwd).await,
            Action::ListTemplates => self.list_templates(ctx, &cwd, &params).await,
            Action::SearchTemplates => self.search_templates(ctx, &cwd, &params).await,
            Action::TemplateInfo => self.template_info(ctx, &cwd, &params).await,
            Action::ListTemplatePacks => self.list_template_packs(ctx, &cwd).await,
            Action::InstallTemplatePack => self.install_template_pack(ctx, &cwd, &params).await,
            Action::UninstallTemplatePack => self.uninstall_template_pack(ctx, &cwd, &params).await,
            Action::FrameworkInfo => self.framework_info(ctx, &cwd, &params).await,
            Action::ConfigureGlobalJson => self.configure_global_json(&cwd, &params).await,
            Action::ClearTemplateCache => self.clear_template_cache(ctx, &cwd).await,
        }
    }

    /// Runs `dotnet ARGS`; only a run that did not end by itself (no dotnet, no SDK, cancelled,
    /// timed out) is an error here.
    async fn run(&self, ctx: &CallContext, cwd: &Path, args: &[&str], progress: ProgressKind) -> Result<Ran, Failure> {
        let args: Vec<String> = args.iter().map(|arg| (*arg).to_owned()).collect();
        let description = format!("dotnet {}", args.join(" "));
        let command = Command::new(args, cwd, description).progress(progress);
        Ok(exec::run(&self.settings, ctx, command).await?)
    }

    /// Runs `dotnet ARGS` and requires exit code 0.
    async fn run_ok(&self, ctx: &CallContext, cwd: &Path, args: &[&str]) -> Result<Ran, Failure> {
        let ran = self.run(ctx, cwd, args, ProgressKind::None).await?;
        if ran.succeeded() { Ok(ran) } else { Err(ran.failure().into()) }
    }

    async fn global_lock(&self, action: Action) -> Result<LockGuard, Failure> {
        let operation = format!("dotnet_sdk {}", action.name());
        locking::acquire(&self.plugin, &LockTarget::global(), &operation, self.settings.lock_wait)
            .await
            .map_err(|(error, extra)| Failure { error, extra: Some(extra).filter(|extra| !extra.is_null()) })
    }

    async fn version(&self, ctx: &CallContext, cwd: &Path) -> Outcome {
        let ran = self.run_ok(ctx, cwd, &["--version"]).await?;
        let version = ran.outcome.stdout.lines().map(str::trim).find(|line| !line.is_empty()).unwrap_or_default();
        Ok(Reply::new(format!("The .NET SDK in use in {} is {version}.", cwd.display()))
            .structured(structured(Action::Version, json!({ "version": version }))))
    }

    async fn info(&self, ctx: &CallContext, cwd: &Path) -> Outcome {
        let ran = self.run_ok(ctx, cwd, &["--info"]).await?;
        let fields = parse::info(&ran.outcome.stdout);
        let sdks = fields["sdks"].as_array().map_or(0, Vec::len);
        let runtimes = fields["runtimes"].as_array().map_or(0, Vec::len);
        let in_use = match fields["sdkVersion"].as_str() {
            Some(version) => format!(".NET SDK {version} in use"),
            None => "No .NET SDK in use".to_owned(),
        };
        let platform = [&fields["osName"], &fields["osVersion"], &fields["rid"]]
            .iter()
            .filter_map(|field| field.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        let summary = format!(
            "{in_use}{}; {} and {} installed.",
            if platform.is_empty() { String::new() } else { format!(" on {platform}") },
            counted(sdks, "SDK", "SDKs"),
            counted(runtimes, "runtime", "runtimes"),
        );
        let global_json = fields["globalJson"].as_str().map(|path| format!("global.json in effect: {path}"));
        let listed = |key: &str| -> Vec<String> {
            fields[key]
                .as_array()
                .into_iter()
                .flatten()
                .map(|item| {
                    let name = item["name"].as_str().map(|name| format!("{name} ")).unwrap_or_default();
                    format!(
                        "{name}{} [{}]",
                        item["version"].as_str().unwrap_or_default(),
                        item["path"].as_str().unwrap_or_default()
                    )
                })
                .collect()
        };
        Ok(Reply::new(summary)
            .section("global.json", global_json.into_iter().collect())
            .section("SDKs", listed("sdks"))
            .section("Runtimes", listed("runtimes"))
            .output(ran.outcome.stdout.clone())
            .structured(structured(Action::Info, fields)))
    }

    async fn list_sdks(&self, ctx: &CallContext, cwd: &Path) -> Outcome {
        let ran = self.run_ok(ctx, cwd, &["--list-sdks"]).await?;
        let sdks = listings::parse_sdks(&ran.outcome.stdout);
        let latest = listings::newest(sdks.iter().map(|sdk| sdk.version.as_str()));
        let summary = match latest {
            Some(latest) => format!("{} installed; the newest is {latest}.", counted(sdks.len(), "SDK is", "SDKs are")),
            None => "No .NET SDK is installed (a runtime-only installation): SDK commands cannot run here. \
                     Install an SDK from https://dotnet.microsoft.com/download."
                .to_owned(),
        };
        let lines = sdks.iter().map(|sdk| format!("{} [{}]", sdk.version, sdk.path)).collect();
        Ok(Reply::new(summary)
            .section("SDKs", lines)
            .structured(structured(Action::ListSdks, json!({ "sdks": sdks, "latest": latest }))))
    }

    async fn list_runtimes(&self, ctx: &CallContext, cwd: &Path) -> Outcome {
        let ran = self.run_ok(ctx, cwd, &["--list-runtimes"]).await?;
        let runtimes = listings::parse_runtimes(&ran.outcome.stdout);
        let lines = runtimes.iter().map(|r| format!("{} {} [{}]", r.name, r.version, r.path)).collect();
        Ok(Reply::new(format!("{} installed.", counted(runtimes.len(), "runtime is", "runtimes are")))
            .section("Runtimes", lines)
            .structured(structured(Action::ListRuntimes, json!({ "runtimes": runtimes }))))
    }

    /// The template filters shared by list and search, as CLI options.
    fn template_filters(params: &Params<'_>) -> Result<Vec<String>, ErrorResponse> {
        let mut args = Vec::new();
        for (name, option) in [("language", "--language"), ("type", "--type"), ("tag", "--tag"), ("author", "--author")]
        {
            if let Some(value) = params.opt(name, Kind::Text)? {
                args.extend([option.to_owned(), value.to_owned()]);
            }
        }
        Ok(args)
    }

    /// Exit code 103 with "No templates found": an empty result, not a failure.
    fn no_match(ran: &Ran) -> bool {
        ran.exit_code() == 103 && ran.outcome.transcript.contains("No templates")
    }

    /// The first `maxResults` templates, with the total and whether some were cut.
    fn limit(templates: Vec<Value>, params: &Params<'_>) -> (Vec<Value>, usize, bool) {
        let total = templates.len();
        let max = params.opt_u64("maxResults").map_or(usize::MAX, |max| usize::try_from(max).unwrap_or(usize::MAX));
        let kept: Vec<Value> = templates.into_iter().take(max).collect();
        let truncated = kept.len() < total;
        (kept, total, truncated)
    }

    fn template_line(template: &Value) -> String {
        let short_names: Vec<&str> =
            template["shortNames"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
        let languages: Vec<&str> =
            template["languages"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
        let mut line = format!("{}: {}", short_names.join(", "), template["name"].as_str().unwrap_or_default());
        if !languages.is_empty() {
            line.push_str(&format!(" [{}]", languages.join(", ")));
        }
        if let Some(package) = template["package"].as_str() {
            line.push_str(&format!(" from {package}"));
        }
        if let Some(downloads) = template["downloads"].as_str() {
            line.push_str(&format!(", {downloads} downloads"));
        }
        line
    }

    async fn list_templates(&self, ctx: &CallContext, cwd: &Path, params: &Params<'_>) -> Outcome {
        let filter = params.opt("filter", Kind::Text)?;
        let mut args: Vec<String> = vec!["new".into(), "list".into()];
        args.extend(filter.map(str::to_owned));
        args.extend(Self::template_filters(params)?);
        args.push("--columns-all".into());
        if params.flag("forceReload") {
            args.push("--debug:rebuild-cache".into());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let ran = self.run(ctx, cwd, &args, ProgressKind::None).await?;
        let templates = if Self::no_match(&ran) {
            Vec::new()
        } else if ran.succeeded() {
            parse::templates(&ran.outcome.stdout)
        } else {
            return Err(ran.failure().into());
        };
        let (templates, total, truncated) = Self::limit(templates, params);
        let mut summary = match filter {
            Some(filter) => format!("{} installed match '{filter}'", counted(total, "template", "templates")),
            None => format!("{} installed", counted(total, "template is", "templates are")),
        };
        summary.push_str(&if truncated { format!("; the first {} are listed.", templates.len()) } else { ".".into() });
        let lines = templates.iter().map(Self::template_line).collect();
        let mut fields = json!({ "templates": templates, "totalCount": total, "truncated": truncated });
        if let Some(filter) = filter {
            fields["filter"] = json!(filter);
        }
        Ok(Reply::new(summary).section("Templates", lines).structured(structured(Action::ListTemplates, fields)))
    }

    async fn search_templates(&self, ctx: &CallContext, cwd: &Path, params: &Params<'_>) -> Outcome {
        let term = params.req("searchTerm", Kind::Text)?;
        let mut args: Vec<String> = vec!["new".into(), "search".into(), term.to_owned()];
        args.extend(Self::template_filters(params)?);
        args.push("--columns-all".into());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let ran = self.run(ctx, cwd, &args, ProgressKind::Lines).await?;
        let results = if Self::no_match(&ran) {
            Vec::new()
        } else if ran.succeeded() {
            parse::search_results(&ran.outcome.stdout)
        } else {
            return Err(ran.failure().into());
        };
        let (templates, total, truncated) = Self::limit(results, params);
        let mut summary = format!("{} on NuGet.org match '{term}'", counted(total, "template", "templates"));
        summary.push_str(&if truncated { format!("; the first {} are listed.", templates.len()) } else { ".".into() });
        if total > 0 {
            summary.push_str(" Install one with action InstallTemplatePack and its package id.");
        }
        let lines = templates.iter().map(Self::template_line).collect();
        let fields = json!({ "searchTerm": term, "templates": templates, "totalCount": total, "truncated": truncated });
        Ok(Reply::new(summary).section("Templates", lines).structured(structured(Action::SearchTemplates, fields)))
    }

    async fn template_info(&self, ctx: &CallContext, cwd: &Path, params: &Params<'_>) -> Outcome {
        let short_name = params.req("templateShortName", Kind::Identifier)?;
        let mut args = vec!["new", short_name, "--help"];
        if let Some(language) = params.opt("language", Kind::Text)? {
            args.extend(["--language", language]);
        }
        if params.flag("forceReload") {
            args.push("--debug:rebuild-cache");
        }
        let ran = self.run(ctx, cwd, &args, ProgressKind::None).await?;
        if !ran.succeeded() {
            let mut error = ran.failure();
            if ran.exit_code() == 103 {
                error.errors[0].hint = Some(format!(
                    "No installed template has the short name '{short_name}'. Use ListTemplates to see the installed \
                     ones, or SearchTemplates and InstallTemplatePack to get it."
                ));
            }
            return Err(error.into());
        }
        let help = template_help::parse(&ran.outcome.stdout);
        let mut summary = format!("{} ({short_name}", help.name);
        if let Some(language) = &help.language {
            summary.push_str(&format!(", {language}"));
        }
        summary.push(')');
        if let Some(author) = &help.author {
            summary.push_str(&format!(" by {author}"));
        }
        summary.push_str(&format!(": {}", help.description.as_deref().unwrap_or("no description")));
        let options = help
            .options
            .iter()
            .map(|option| {
                let mut line = option.option.clone();
                if !option.aliases.is_empty() {
                    line.push_str(&format!(" ({})", option.aliases.join(", ")));
                }
                if let Some(kind) = &option.data_type {
                    line.push_str(&format!(" [{kind}]"));
                }
                line.push_str(&format!(": {}", option.description));
                if !line.ends_with(['.', '!', '?', ')']) {
                    line.push('.');
                }
                if !option.choices.is_empty() {
                    let values: Vec<&str> = option.choices.iter().map(|c| c.value.as_str()).collect();
                    line.push_str(&format!(" One of: {}.", values.join(", ")));
                }
                if let Some(default) = &option.default_value {
                    line.push_str(&format!(" Default: {default}."));
                }
                line
            })
            .collect();
        let fields = json!({ "shortName": short_name, "template": help });
        Ok(Reply::new(summary)
            .section("Template options", options)
            .output(ran.outcome.stdout.clone())
            .structured(structured(Action::TemplateInfo, fields)))
    }

    async fn list_template_packs(&self, ctx: &CallContext, cwd: &Path) -> Outcome {
        let ran = self.run_ok(ctx, cwd, &["new", "uninstall"]).await?;
        let packs = parse::template_packs(&ran.outcome.stdout);
        let lines = packs
            .iter()
            .map(|pack| {
                let templates = pack["templates"].as_array().map_or(0, Vec::len);
                let version = pack["version"].as_str().map(|v| format!(" {v}")).unwrap_or_default();
                format!(
                    "{}{version}: {}",
                    pack["id"].as_str().unwrap_or_default(),
                    counted(templates, "template", "templates")
                )
            })
            .collect();
        let summary = format!(
            "{} installed (the SDK's own templates are not listed here; ListTemplates shows every template).",
            counted(packs.len(), "template package is", "template packages are")
        );
        Ok(Reply::new(summary)
            .section("Template packages", lines)
            .structured(structured(Action::ListTemplatePacks, json!({ "packs": packs }))))
    }

    /// The install argument: a path that exists (folder or .nupkg), or `id[::version]`.
    fn package_spec(cwd: &Path, params: &Params<'_>) -> Result<String, ErrorResponse> {
        let package = params.req("templatePackage", Kind::Text)?;
        let version = params.opt("templateVersion", Kind::Version)?;
        if looks_like_path(package) {
            if !cwd.join(package).exists() {
                return Err(ErrorResult::invalid_params(
                    "templatePackage",
                    "not found",
                    &format!("Parameter 'templatePackage': '{package}' looks like a path, but nothing exists there (relative to {}).", cwd.display()),
                )
                .into());
            }
            if version.is_some() {
                return Err(ErrorResult::invalid_params(
                    "templateVersion",
                    "not applicable",
                    "Parameter 'templateVersion' applies to NuGet packages, not to a folder or .nupkg file.",
                )
                .into());
            }
            return Ok(package.to_owned());
        }
        let (id, inline) = split_version(package);
        check("templatePackage", Kind::PackageId, id)?;
        if let Some(inline) = inline {
            check("templatePackage", Kind::Version, inline)?;
        }
        let version = match (inline, version) {
            (Some(_), Some(_)) => {
                return Err(ErrorResult::invalid_params(
                    "templateVersion",
                    "conflict",
                    "Give the version either in 'templatePackage' (id@version) or in 'templateVersion', not both.",
                )
                .into());
            }
            (inline, version) => inline.or(version),
        };
        Ok(match version {
            Some(version) => format!("{id}::{version}"),
            None => id.to_owned(),
        })
    }

    async fn install_template_pack(&self, ctx: &CallContext, cwd: &Path, params: &Params<'_>) -> Outcome {
        let spec = Self::package_spec(cwd, params)?;
        let mut args = vec!["new", "install", spec.as_str()];
        if let Some(source) = params.opt("nugetSource", Kind::Text)? {
            args.extend(["--nuget-source", source]);
        }
        if params.flag("interactive") {
            args.push("--interactive");
        }
        if params.flag("force") {
            args.push("--force");
        }
        let guard = self.global_lock(Action::InstallTemplatePack).await?;
        let ran = self
            .run(ctx, cwd, &args, ProgressKind::Lines)
            .await
            .map_err(|f| Failure { extra: lock_extra(&guard), ..f })?;
        let already =
            ran.exit_code() == 106 && ran.outcome.transcript.to_ascii_lowercase().contains("already installed");
        if !ran.succeeded() && !already {
            return Err(Failure { error: ran.failure(), extra: lock_extra(&guard) });
        }
        let installed = parse::installed(&ran.outcome.stdout);
        let templates = parse::templates(&ran.outcome.stdout);
        let (id, requested_version) = split_version(&spec);
        let package = installed.package.clone().unwrap_or_else(|| id.to_owned());
        let version = installed.version.clone().or_else(|| requested_version.map(str::to_owned));
        let at = version.as_deref().map(|v| format!(" {v}")).unwrap_or_default();
        let summary = if already {
            format!("{package}{at} was already installed; nothing changed.")
        } else {
            let replaced =
                installed.previous_version.as_deref().map(|v| format!(" (replacing {v})")).unwrap_or_default();
            format!("Installed {package}{at}{replaced} with {}.", counted(templates.len(), "template", "templates"))
        };
        let mut fields = json!({
            "package": package,
            "alreadyInstalled": already,
            "templates": templates,
            "lockInfo": locking::lock_info_json(guard.info()),
        });
        if let Some(version) = version {
            fields["version"] = json!(version);
        }
        if let Some(previous) = installed.previous_version {
            fields["previousVersion"] = json!(previous);
        }
        let lines = templates.iter().map(Self::template_line).collect();
        Ok(Reply::new(summary)
            .section("Templates", lines)
            .output(ran.outcome.transcript.clone())
            .structured(structured(Action::InstallTemplatePack, fields)))
    }

    async fn uninstall_template_pack(&self, ctx: &CallContext, cwd: &Path, params: &Params<'_>) -> Outcome {
        let package = params.req("templatePackage", Kind::Text)?;
        if split_version(package).1.is_some() {
            return Err(Failure::from(ErrorResponse::from(ErrorResult::invalid_params(
                "templatePackage",
                "invalid value",
                "Parameter 'templatePackage': an uninstall takes the package id (or the path it was installed from) \
                 without a version; the installed version is removed.",
            ))));
        }
        if !looks_like_path(package) {
            check("templatePackage", Kind::PackageId, package)?;
        }
        let guard = self.global_lock(Action::UninstallTemplatePack).await?;
        let ran = self
            .run(ctx, cwd, &["new", "uninstall", package], ProgressKind::Lines)
            .await
            .map_err(|f| Failure { extra: lock_extra(&guard), ..f })?;
        if !ran.succeeded() {
            let mut error = ran.failure();
            if ran.exit_code() == 103 {
                error.errors[0].hint = Some(format!(
                    "'{package}' is not installed. ListTemplatePacks shows the packages that can be uninstalled."
                ));
            }
            return Err(Failure { error, extra: lock_extra(&guard) });
        }
        let (id, version) = parse::uninstalled(&ran.outcome.stdout).unwrap_or((package.to_owned(), None));
        let at = version.as_deref().map(|v| format!(" {v}")).unwrap_or_default();
        let mut fields = json!({ "package": id, "lockInfo": locking::lock_info_json(guard.info()) });
        if let Some(version) = version {
            fields["version"] = json!(version);
        }
        Ok(Reply::new(format!("Uninstalled {id}{at}; its templates are gone."))
            .structured(structured(Action::UninstallTemplatePack, fields)))
    }

    /// The installed SDK versions, or `None` when dotnet is not there to ask.
    async fn sdk_versions(&self, ctx: &CallContext, cwd: &Path) -> Result<Option<Vec<String>>, Failure> {
        match self.run(ctx, cwd, &["--list-sdks"], ProgressKind::None).await {
            Ok(ran) if ran.succeeded() => {
                Ok(Some(listings::parse_sdks(&ran.outcome.stdout).into_iter().map(|sdk| sdk.version).collect()))
            }
            Ok(_) => Ok(None),
            Err(Failure { error, .. }) if error.errors[0].code == code::CAPABILITY_NOT_AVAILABLE => Ok(None),
            Err(failure) => Err(failure),
        }
    }

    async fn framework_info(&self, ctx: &CallContext, cwd: &Path, params: &Params<'_>) -> Outcome {
        let requested = match params.opt("framework", Kind::Framework)? {
            Some(tfm) => Some(frameworks::lookup(tfm).ok_or_else(|| {
                let known: Vec<&str> = frameworks::TABLE.iter().map(|framework| framework.tfm).collect();
                ErrorResponse::from(ErrorResult::invalid_params(
                    "framework",
                    "unknown value",
                    &format!(
                        "Parameter 'framework': '{tfm}' is not a framework this server knows. Known: {}.",
                        known.join(", ")
                    ),
                ))
            })?),
            None => None,
        };
        let sdk_versions = self.sdk_versions(ctx, cwd).await?;
        let today = frameworks::today();
        let versions: Option<Vec<&str>> = sdk_versions.as_ref().map(|v| v.iter().map(String::as_str).collect());
        let recommended = frameworks::recommended(&today, versions.as_deref().unwrap_or_default());
        let latest_lts = frameworks::newest_supported(&today, Some(frameworks::ReleaseType::Lts));
        let shown: Vec<&frameworks::Framework> = match requested {
            Some((framework, _)) => vec![framework],
            None => frameworks::TABLE.iter().collect(),
        };
        let describe = |framework: &frameworks::Framework| {
            let mut line = format!("{}: {}", framework.tfm, framework.description);
            if let Some(kind) = framework.release_type {
                line.push_str(if kind == frameworks::ReleaseType::Lts { ", LTS" } else { ", STS" });
            }
            match (framework.status(&today), framework.end_of_support) {
                (frameworks::Status::Supported, Some(end)) => line.push_str(&format!(", supported until {end}")),
                (frameworks::Status::EndOfSupport, Some(end)) => {
                    line.push_str(&format!(", out of support since {end}"))
                }
                (frameworks::Status::Preview, _) => line.push_str(", not released yet"),
                _ => {}
            }
            line
        };
        let mut summary = match requested {
            Some((framework, _)) => format!("{}.", describe(framework)),
            None => String::new(),
        };
        if let Some((framework, installed)) = recommended {
            if !summary.is_empty() {
                summary.push(' ');
            }
            summary.push_str(&format!("Recommended for new projects: {} (the newest supported LTS)", framework.tfm));
            summary.push_str(if installed || sdk_versions.is_none() {
                "."
            } else {
                "; no installed SDK can build for it yet."
            });
        }
        if sdk_versions.is_none() {
            summary.push_str(" dotnet was not found, so installed SDKs are unknown.");
        }
        let newer = frameworks::newer_than_table(versions.as_deref().unwrap_or_default());
        let mut fields = json!({
            "frameworks": shown.iter().map(|f| f.to_json(&today, versions.as_deref())).collect::<Vec<_>>(),
            "latestRecommended": recommended.map(|(framework, _)| framework.tfm),
            "latestLts": latest_lts.map(|framework| framework.tfm),
            "installedSdks": sdk_versions,
            "sdksNewerThanTable": newer,
            "asOf": today,
        });
        if let Some((_, Some(platform))) = requested {
            fields["platform"] = json!(platform);
        }
        let mut notes: Vec<String> = shown.iter().map(|framework| describe(framework)).collect();
        if !newer.is_empty() {
            notes.push(format!(
                "Installed SDKs newer than this table: {} (its facts may be out of date).",
                newer.join(", ")
            ));
        }
        Ok(Reply::new(summary.trim().to_owned())
            .section("Frameworks", notes)
            .structured(structured(Action::FrameworkInfo, fields)))
    }

    async fn configure_global_json(&self, cwd: &Path, params: &Params<'_>) -> Outcome {
        let settings = global_json_settings(params)?;
        let path = global_json_path(cwd, params.opt("globalJsonPath", Kind::Path)?)?;
        let folder = path.parent().map(Path::to_owned).unwrap_or_else(|| cwd.to_owned());
        let target = LockTarget {
            scope: mcp_plugin_api::locks::LockScope::WorkingDirectory,
            key: locking::canonical(&folder).display().to_string(),
        };
        let guard = locking::acquire(&self.plugin, &target, "dotnet_sdk ConfigureGlobalJson", self.settings.lock_wait)
            .await
            .map_err(|(error, extra)| Failure { error, extra: Some(extra).filter(|extra| !extra.is_null()) })?;
        let file_error = |reason: &str, message: String| Failure {
            error: ErrorResult::invalid_params("globalJsonPath", reason, &message).into(),
            extra: lock_extra(&guard),
        };
        let existing = match std::fs::read_to_string(&path) {
            Ok(text) => Some(text),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
            Err(error) => return Err(file_error("unreadable", format!("{} cannot be read: {error}.", path.display()))),
        };
        let created = existing.is_none();
        let edited = global_json::edit(existing.as_deref(), &settings).map_err(|reason| {
            file_error(
                "invalid file",
                format!("{} cannot be edited: {reason}. Fix or remove it first.", path.display()),
            )
        })?;
        let changed = edited.changed_anything();
        if created || changed {
            std::fs::write(&path, &edited.text)
                .map_err(|error| file_error("unwritable", format!("{} cannot be written: {error}.", path.display())))?;
        }
        let lines: Vec<String> = edited
            .changes
            .iter()
            .map(|change| match (&change.previous, change.changed()) {
                (_, false) => format!("{} stays {}", change.setting, change.value),
                (Value::Null, true) => format!("{} set to {}", change.setting, change.value),
                (previous, true) => format!("{}: {previous} -> {}", change.setting, change.value),
            })
            .collect();
        let summary = match (created, changed) {
            (true, _) => format!("Created {}.", path.display()),
            (false, true) => format!("Updated {} (comments and formatting kept).", path.display()),
            (false, false) => format!("{} already had these values; nothing was written.", path.display()),
        };
        let changes: Vec<Value> = edited
            .changes
            .iter()
            .map(|change| json!({ "setting": change.setting, "previous": change.previous, "value": change.value }))
            .collect();
        let fields = json!({
            "path": path.display().to_string(),
            "created": created,
            "changes": changes,
            "content": edited.text,
            "lockInfo": locking::lock_info_json(guard.info()),
        });
        Ok(Reply::new(summary)
            .section("Settings", lines)
            .output(edited.text.clone())
            .structured(structured(Action::ConfigureGlobalJson, fields)))
    }

    async fn clear_template_cache(&self, ctx: &CallContext, cwd: &Path) -> Outcome {
        let guard = self.global_lock(Action::ClearTemplateCache).await?;
        let ran = self
            .run(ctx, cwd, &["new", "list", "--columns-all", "--debug:rebuild-cache"], ProgressKind::None)
            .await
            .map_err(|f| Failure { extra: lock_extra(&guard), ..f })?;
        if !ran.succeeded() {
            return Err(Failure { error: ran.failure(), extra: lock_extra(&guard) });
        }
        let count = parse::templates(&ran.outcome.stdout).len();
        let fields =
            json!({ "cacheRebuilt": true, "templateCount": count, "lockInfo": locking::lock_info_json(guard.info()) });
        Ok(Reply::new(format!(
            "Rebuilt the template engine's cache; {} now installed.",
            counted(count, "template is", "templates are")
        ))
        .structured(structured(Action::ClearTemplateCache, fields)))
    }
}

/// Whether a template package argument names a folder or file rather than a NuGet id.
fn looks_like_path(package: &str) -> bool {
    package.contains('/')
        || package.contains('\\')
        || package.starts_with('.')
        || package.to_ascii_lowercase().ends_with(".nupkg")
}

/// `id@version` or `id::version` → (`id`, `version`).
fn split_version(package: &str) -> (&str, Option<&str>) {
    match package.split_once("::").or_else(|| package.split_once('@')) {
        Some((id, version)) => (id, Some(version)),
        None => (package, None),
    }
}

/// A full SDK version: `10.0.100`, `10.0.100-rc.2.25502.107`.
fn is_sdk_version(version: &str) -> bool {
    let (core, pre) = version.split_once('-').map_or((version, None), |(core, pre)| (core, Some(pre)));
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_digit()))
        && parts[2].len() >= 3
        && pre
            .is_none_or(|pre| !pre.is_empty() && pre.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-'))
}

/// The settings ConfigureGlobalJson was asked to write, checked and in canonical spelling.
fn global_json_settings<'a>(params: &Params<'a>) -> Result<global_json::Settings<'a>, ErrorResponse> {
    let invalid =
        |name: &str, message: String| ErrorResponse::from(ErrorResult::invalid_params(name, "invalid value", &message));
    let sdk_version = params.opt("sdkVersion", Kind::Version)?;
    if let Some(version) = sdk_version.filter(|version| !is_sdk_version(version)) {
        return Err(invalid(
            "sdkVersion",
            format!(
                "Parameter 'sdkVersion' must be a full SDK version such as 10.0.100 or 10.0.100-rc.2.25502.107 (got '{version}')."
            ),
        ));
    }
    let roll_forward = match params.opt("rollForward", Kind::Identifier)? {
        None => None,
        Some(value) => {
            Some(*schema::ROLL_FORWARD.iter().find(|known| known.eq_ignore_ascii_case(value)).ok_or_else(|| {
                invalid(
                    "rollForward",
                    format!(
                        "Parameter 'rollForward' must be one of {} (got '{value}').",
                        schema::ROLL_FORWARD.join(", ")
                    ),
                )
            })?)
        }
    };
    let test_runner = match params.opt("testRunner", Kind::Identifier)? {
        None => None,
        Some(value) if value.eq_ignore_ascii_case("MicrosoftTestingPlatform") || value.eq_ignore_ascii_case("MTP") => {
            Some(schema::TEST_RUNNERS[0])
        }
        Some(value) => {
            Some(*schema::TEST_RUNNERS.iter().find(|known| known.eq_ignore_ascii_case(value)).ok_or_else(|| {
                invalid(
                    "testRunner",
                    format!(
                        "Parameter 'testRunner' must be one of {} (got '{value}').",
                        schema::TEST_RUNNERS.join(", ")
                    ),
                )
            })?)
        }
    };
    let allow_prerelease = match params.raw("allowPrerelease") {
        None => None,
        Some(Value::Bool(flag)) => Some(*flag),
        Some(other) => {
            return Err(invalid(
                "allowPrerelease",
                format!("Parameter 'allowPrerelease' must be true or false, not {other}."),
            ));
        }
    };
    let settings = global_json::Settings { sdk_version, roll_forward, allow_prerelease, test_runner };
    if settings.is_empty() {
        return Err(ErrorResult::invalid_params(
            "sdkVersion",
            "required",
            "ConfigureGlobalJson needs at least one of sdkVersion, rollForward, allowPrerelease or testRunner.",
        )
        .into());
    }
    Ok(settings)
}

/// The global.json to edit: `requested` (a file named global.json, or a folder for one) relative
/// to `cwd`, else `cwd/global.json`. Its folder must exist.
fn global_json_path(cwd: &Path, requested: Option<&str>) -> Result<PathBuf, ErrorResponse> {
    let invalid = |reason: &str, message: String| {
        ErrorResponse::from(ErrorResult::invalid_params("globalJsonPath", reason, &message))
    };
    let path = match requested {
        None => cwd.join("global.json"),
        Some(requested) => {
            let path = cwd.join(requested);
            if path.is_dir() {
                path.join("global.json")
            } else if path.file_name().is_some_and(|name| name == "global.json") {
                path
            } else {
                return Err(invalid(
                    "invalid value",
                    format!(
                        "Parameter 'globalJsonPath' must be a file named global.json or an existing folder (got '{requested}')."
                    ),
                ));
            }
        }
    };
    match path.parent() {
        Some(folder) if folder.is_dir() => Ok(path),
        _ => Err(invalid(
            "not found",
            format!("Parameter 'globalJsonPath': the folder of {} does not exist.", path.display()),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sdk_versions_must_be_complete() {
        for good in ["10.0.100", "8.0.416", "10.0.100-rc.2.25502.107", "11.0.100-preview.1"] {
            assert!(is_sdk_version(good), "{good}");
        }
        for bad in ["10", "10.0", "10.0.1", "latest", "10.0.100-", "10.0.x00", "1.2.3.4"] {
            assert!(!is_sdk_version(bad), "{bad}");
        }
    }

    #[test]
    fn package_arguments_split_into_id_and_version() {
        assert_eq!(split_version("Foo.Templates@1.2.3"), ("Foo.Templates", Some("1.2.3")));
        assert_eq!(split_version("Foo.Templates::1.2.3"), ("Foo.Templates", Some("1.2.3")));
        assert_eq!(split_version("Foo.Templates"), ("Foo.Templates", None));
        assert!(looks_like_path("./my-templates") && looks_like_path("pkgs/x.nupkg") && looks_like_path("X.NUPKG"));
        assert!(!looks_like_path("MudBlazor.Templates"));
    }

    #[test]
    fn global_json_paths_name_the_file_or_its_folder() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(global_json_path(dir.path(), None).unwrap(), dir.path().join("global.json"));
        assert_eq!(global_json_path(dir.path(), Some(".")).unwrap(), dir.path().join(".").join("global.json"));
        assert_eq!(global_json_path(dir.path(), Some("global.json")).unwrap(), dir.path().join("global.json"));
        assert!(global_json_path(dir.path(), Some("settings.json")).is_err());
        assert!(global_json_path(dir.path(), Some("missing/global.json")).is_err());
    }
}
