//! Templates: ListTemplates, SearchTemplates, TemplateInfo and ClearTemplateCache.

use dotnet_support::{
    errors::ErrorResponse,
    exec::{ProgressKind, Ran},
    kit::{
        Call, Outcome,
        prose::{count, count_of},
    },
    locking::LockTarget,
    params::{Kind, Params},
    respond::Reply,
    template_help::{self, TemplateHelp},
};
use schemars::JsonSchema;
use serde::Serialize;

use super::run;
use crate::parse::{self, Template};

/// ListTemplates: the installed templates.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Listed {
    templates: Vec<Template>,
    #[schemars(range(min = 0))]
    total_count: i64,
    truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    filter: Option<String>,
}

/// SearchTemplates: the templates on NuGet.org.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Found {
    search_term: String,
    templates: Vec<Template>,
    #[schemars(range(min = 0))]
    total_count: i64,
    truncated: bool,
}

/// TemplateInfo: one template's options.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Info {
    short_name: String,
    template: TemplateHelp,
}

/// ClearTemplateCache: the cache rebuilt.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CacheRebuilt {
    #[schemars(extend("const" = true))]
    cache_rebuilt: bool,
    #[schemars(range(min = 0))]
    template_count: i64,
}

/// A count for results (a list's length always fits).
pub(super) fn count_field(count: usize) -> i64 {
    i64::try_from(count).unwrap_or(i64::MAX)
}

/// The template filters shared by list and search, as CLI options.
fn template_filters(params: &Params<'_>) -> Result<Vec<String>, ErrorResponse> {
    let mut args = Vec::new();
    for (name, option) in [("language", "--language"), ("type", "--type"), ("tag", "--tag"), ("author", "--author")] {
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
fn limit(templates: Vec<Template>, params: &Params<'_>) -> (Vec<Template>, usize, bool) {
    let total = templates.len();
    let max = params.opt_u64("maxResults").map_or(usize::MAX, |max| usize::try_from(max).unwrap_or(usize::MAX));
    let kept: Vec<Template> = templates.into_iter().take(max).collect();
    let truncated = kept.len() < total;
    (kept, total, truncated)
}

/// One template as a line for the model.
pub(super) fn template_line(template: &Template) -> String {
    let mut line = format!("{}: {}", template.short_names.join(", "), template.name);
    if !template.languages.is_empty() {
        line.push_str(&format!(" [{}]", template.languages.join(", ")));
    }
    if let Some(package) = &template.package {
        line.push_str(&format!(" from {package}"));
    }
    if let Some(downloads) = &template.downloads {
        line.push_str(&format!(", {downloads} downloads"));
    }
    line
}

pub async fn list_templates(call: &Call<'_>) -> Outcome {
    let params = call.params();
    let filter = params.opt("filter", Kind::Text)?;
    let mut args: Vec<String> = vec!["new".into(), "list".into()];
    args.extend(filter.map(str::to_owned));
    args.extend(template_filters(params)?);
    args.push("--columns-all".into());
    if params.flag("forceReload") {
        args.push("--debug:rebuild-cache".into());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let ran = run(call, &args, ProgressKind::None).await?;
    let templates = if no_match(&ran) {
        Vec::new()
    } else if ran.succeeded() {
        parse::templates(&ran.outcome.stdout)
    } else {
        return Err(ran.failure().into());
    };
    let (templates, total, truncated) = limit(templates, params);
    let mut summary = match filter {
        Some(filter) => format!("{} installed match '{filter}'", count(total, "template")),
        None => format!("{} installed", count_of(total, "template is", "templates are")),
    };
    summary.push_str(&if truncated { format!("; the first {} are listed.", templates.len()) } else { ".".into() });
    let lines = templates.iter().map(template_line).collect();
    let listed = Listed { templates, total_count: count_field(total), truncated, filter: filter.map(str::to_owned) };
    Ok(Reply::new(summary).section("Templates", lines).result(listed))
}

pub async fn search_templates(call: &Call<'_>) -> Outcome {
    let params = call.params();
    let term = params.req("searchTerm", Kind::Text)?;
    let mut args: Vec<String> = vec!["new".into(), "search".into(), term.to_owned()];
    args.extend(template_filters(params)?);
    args.push("--columns-all".into());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let ran = run(call, &args, ProgressKind::Lines).await?;
    let results = if no_match(&ran) {
        Vec::new()
    } else if ran.succeeded() {
        parse::search_results(&ran.outcome.stdout)
    } else if let Some(why) = parse::search_failure(&ran.outcome.transcript) {
        return Err(search_unreachable(&ran, why).into());
    } else {
        return Err(ran.failure().into());
    };
    let (templates, total, truncated) = limit(results, params);
    let mut summary = format!("{} on NuGet.org match '{term}'", count(total, "template"));
    summary.push_str(&if truncated { format!("; the first {} are listed.", templates.len()) } else { ".".into() });
    if total > 0 {
        summary.push_str(" Install one with action InstallTemplatePack and its package id.");
    }
    let lines = templates.iter().map(template_line).collect();
    let found = Found { search_term: term.to_owned(), templates, total_count: count_field(total), truncated };
    Ok(Reply::new(summary).section("Templates", lines).result(found))
}

/// `dotnet new search` could not read NuGet.org's template index (exit 103, `Search failed:
/// Failed to update search cache. (Name or service not known (go.microsoft.com:443))` on SDK
/// 10.0.401 offline): the search is not possible here, and templates can still be installed
/// by package id.
fn search_unreachable(ran: &Ran, why: &str) -> ErrorResponse {
    let mut error = ran.not_available(
        "SearchTemplates",
        &format!(
            "dotnet new search reads NuGet.org's template index (a search cache downloaded from go.microsoft.com), \
             which this machine cannot reach: {why}"
        ),
        vec![
            "Install a template package by its NuGet id with InstallTemplatePack (templatePackage, and nugetSource \
             for a local feed or a mirror that serves it)."
                .to_owned(),
            "ListTemplates shows the templates installed already.".to_owned(),
            "Search https://www.nuget.org/packages?packagetype=template from a machine with internet access."
                .to_owned(),
        ],
    );
    error.errors[0].hint = Some(
        "Template search needs internet access to NuGet.org; install a template package by id with \
         InstallTemplatePack instead."
            .to_owned(),
    );
    error
}

pub async fn template_info(call: &Call<'_>) -> Outcome {
    let params = call.params();
    let short_name = params.req("templateShortName", Kind::Identifier)?;
    let mut args = vec!["new", short_name, "--help"];
    if let Some(language) = params.opt("language", Kind::Text)? {
        args.extend(["--language", language]);
    }
    if params.flag("forceReload") {
        args.push("--debug:rebuild-cache");
    }
    let ran = run(call, &args, ProgressKind::None).await?;
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
    let info = Info { short_name: short_name.to_owned(), template: help };
    Ok(Reply::new(summary).section("Template options", options).output(ran.outcome.stdout.clone()).result(info))
}

pub async fn clear_template_cache(call: &Call<'_>) -> Outcome {
    let _guard = call.lock(&LockTarget::global()).await?;
    let ran = run(call, &["new", "list", "--columns-all", "--debug:rebuild-cache"], ProgressKind::None).await?;
    if !ran.succeeded() {
        return Err(ran.failure().into());
    }
    let templates = parse::templates(&ran.outcome.stdout).len();
    Ok(Reply::new(format!(
        "Rebuilt the template engine's cache; {} now installed.",
        count_of(templates, "template is", "templates are")
    ))
    .result(CacheRebuilt { cache_rebuilt: true, template_count: count_field(templates) }))
}
