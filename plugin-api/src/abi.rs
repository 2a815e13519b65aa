//! The binary contract between the host and a plugin library.
//!
//! Everything that crosses the dynamic-library boundary is declared here and
//! nowhere else. Plugin authors never touch these types: they implement
//! [`Tool`](crate::Tool) and call [`export_plugin!`](crate::export_plugin),
//! and the host wraps these types behind its own interface.
//!
//! Two rules keep the contract stable across releases of this crate:
//!
//! * Descriptive data travels as JSON text (tool descriptors, arguments,
//!   results, configuration), so a new MCP field never changes a layout.
//! * Behaviour travels through `#[sabi_trait]` objects and the prefix-kind
//!   root module. New methods and fields are only ever appended after the
//!   `last_prefix_field` markers, with default bodies that answer "not
//!   supported", so a 1.x plugin loads into any 1.y host.
//!
//! abi_stable checks the layout of every type reachable from
//! [`PluginModule`] when the library is loaded, and refuses a library built
//! against another major version of this crate.
#![allow(missing_docs, clippy::unnecessary_cast)]

use abi_stable::{
    StableAbi, declare_root_module_statics,
    library::RootModule,
    package_version_strings, sabi_trait,
    sabi_types::VersionStrings,
    std_types::{RBox, ROption, RResult, RStr, RString},
};
use async_ffi::FfiFuture;

/// Log levels as they cross the boundary (tracing's five levels).
pub mod level {
    pub const TRACE: u8 = 0;
    pub const DEBUG: u8 = 1;
    pub const INFO: u8 = 2;
    pub const WARN: u8 = 3;
    pub const ERROR: u8 = 4;
}

/// The services the host lends a plugin for its whole life: configuration
/// and logging, plus whatever later releases append.
#[sabi_trait]
pub trait HostServices: Send + Sync {
    /// The plugin's own configuration section, as a JSON object.
    fn plugin_config(&self) -> RString;

    /// The JSON value at `Plugins.Config.<key>`, shared by all plugins.
    fn shared_config(&self, key: RStr<'_>) -> ROption<RString>;

    /// Emits a log record under the plugin's target in the host.
    #[sabi(last_prefix_field)]
    fn log(&self, level: u8, message: RStr<'_>);

    /// Takes a lock shared by every plugin of the host. `request` is JSON
    /// `{scope, key, operation, waitMs}`; see [`crate::locks`]. Hosts that
    /// predate locks answer that they are unsupported.
    fn acquire_lock(&self, request: RString) -> FfiFuture<LockOutcome> {
        let _ = request;
        FfiFuture::new(async { LockOutcome { info: RString::from(r#"{"unsupported":true}"#), guard: ROption::RNone } })
    }

    /// What the host serves, as JSON `{serverName, hostVersion, pluginApiVersion,
    /// protocolVersions, plugins: [{name, version, tools, prompts, resources}]}`, complete once
    /// every plugin has loaded. Hosts that predate it answer `null`.
    fn host_info(&self) -> RString {
        RString::from("null")
    }

    /// Announces a change of what the plugin serves, as JSON: `{"resourceUpdated": URI}` (the
    /// contents at URI changed; the host tells every session that subscribed to it) or
    /// `{"listChanged": ["prompts" | "resources", …]}` (the host reads the plugin's prompts or
    /// resources again and tells every session when they differ). Callable from any thread at
    /// any time. Hosts that predate it answer `false` and do nothing.
    fn announce(&self, announcement: RString) -> bool {
        let _ = announcement;
        false
    }
}

/// A held lock: dropping it releases the lock in the host.
#[sabi_trait]
pub trait HeldLock: Send + Sync {
    /// The key held, for diagnostics.
    #[sabi(last_prefix_field)]
    fn key(&self) -> RString;
}

/// Owned held lock.
pub type HeldLockBox = HeldLock_TO<'static, RBox<()>>;

/// The answer to [`HostServices::acquire_lock`].
#[repr(C)]
#[derive(StableAbi)]
pub struct LockOutcome {
    /// JSON: `{lockScope, lockKey, lockContended?, lockWaitedMs?, holder?}`.
    pub info: RString,
    /// The lock, when it was acquired.
    pub guard: ROption<HeldLockBox>,
}

/// Owned host services.
pub type HostServicesBox = HostServices_TO<'static, RBox<()>>;

/// The services the host lends one tool call.
#[sabi_trait]
pub trait CallServices: Send + Sync {
    /// Reports progress; a no-op when the client asked for none.
    fn progress(&self, progress: f64, total: ROption<f64>, message: ROption<RString>);

    /// Whether the client (or a timeout) has asked the call to stop.
    fn is_cancelled(&self) -> bool;

    /// Resolves once the call is asked to stop.
    fn cancelled(&self) -> FfiFuture<()>;

    /// The client's negotiated feature tags, as a JSON array of strings.
    fn features(&self) -> RString;

    /// Sends a log record to the calling client (and the host's log).
    fn log(&self, level: u8, message: RStr<'_>);

    /// Sends a request to the client (`elicitation/create`,
    /// `sampling/createMessage`, `roots/list`) and awaits its answer.
    ///
    /// `Ok` carries the result as JSON; `Err` carries
    /// `{"kind": "unsupported"|"failed", "message": …}` as JSON.
    #[sabi(last_prefix_field)]
    fn client_request(&self, method: RString, params: RString) -> FfiFuture<RResult<RString, RString>>;
}

/// Owned call services.
pub type CallServicesBox = CallServices_TO<'static, RBox<()>>;

/// One live plugin, created by [`PluginModule::create`].
#[sabi_trait]
pub trait PluginInstance: Send + Sync {
    /// The plugin's tools as a JSON array in the MCP `Tool` wire format.
    fn tools(&self) -> RResult<RString, RString>;

    /// Calls the tool at `index` of [`Self::tools`] with JSON arguments.
    /// The future yields a JSON `CallToolResult`.
    #[sabi(last_prefix_field)]
    fn call(&self, index: u32, arguments: RString, services: CallServicesBox) -> FfiFuture<RString>;

    /// The plugin's prompts as a JSON array of MCP `Prompt` objects.
    fn prompts(&self) -> RString {
        RString::from("[]")
    }

    /// Renders prompt `index` with JSON `arguments`; `Ok` is a JSON
    /// `GetPromptResult`, `Err` a message for the client.
    fn get_prompt(&self, index: u32, arguments: RString) -> FfiFuture<RResult<RString, RString>> {
        let _ = (index, arguments);
        FfiFuture::new(async { RResult::RErr(RString::from("this plugin has no prompts")) })
    }

    /// Completion values (JSON array of strings) for an argument of prompt `index`.
    fn complete_prompt(&self, index: u32, argument: RString, value: RString) -> RString {
        let _ = (index, argument, value);
        RString::from("[]")
    }

    /// The plugin's resources and templates as a JSON array of MCP
    /// `Resource` and `ResourceTemplate` objects.
    fn resources(&self) -> RString {
        RString::from("[]")
    }

    /// Reads `uri` through resource `index`; `Ok` is a JSON array of MCP
    /// resource contents, `Err` a message for the client.
    fn read_resource(&self, index: u32, uri: RString) -> FfiFuture<RResult<RString, RString>> {
        let _ = (index, uri);
        FfiFuture::new(async { RResult::RErr(RString::from("this plugin has no resources")) })
    }

    /// Reads `uri` through resource `index` for a client: `request` is JSON `{"roots": [{uri,
    /// name?}]}`, the reading client's workspace folders (absent when it declares none), since a
    /// read has no call to ask them from. A plugin that predates it is read with
    /// [`Self::read_resource`].
    fn read_resource_in(&self, index: u32, uri: RString, request: RString) -> FfiFuture<RResult<RString, RString>> {
        let _ = request;
        self.read_resource(index, uri)
    }

    /// Renders prompt `index` with JSON `arguments` for one request: `services` are the request's
    /// (its cancel signal, progress, logs and requests to the client), as a tool call gets them.
    /// `Ok` is a JSON `GetPromptResult`; `Err` is a [`RequestError`] as JSON. A plugin that
    /// predates it is asked through [`Self::get_prompt`], whose `Err` is a plain message.
    fn get_prompt_with(
        &self,
        index: u32,
        arguments: RString,
        services: CallServicesBox,
    ) -> FfiFuture<RResult<RString, RString>> {
        let _ = services;
        self.get_prompt(index, arguments)
    }

    /// Reads `uri` through resource `index` for one request (`request` as for
    /// [`Self::read_resource_in`], `services` as for [`Self::get_prompt_with`]). `Ok` is a JSON
    /// array of MCP resource contents; `Err` is a [`RequestError`] as JSON. A plugin that predates
    /// it is read through [`Self::read_resource_in`].
    fn read_resource_with(
        &self,
        index: u32,
        uri: RString,
        request: RString,
        services: CallServicesBox,
    ) -> FfiFuture<RResult<RString, RString>> {
        let _ = services;
        self.read_resource_in(index, uri, request)
    }

    /// Completion values for an argument of prompt `index`, asynchronously (a plugin may ask an
    /// outside program), for one request (`services` as for [`Self::get_prompt_with`]). `Ok` is a
    /// JSON array of strings; `Err` is a [`RequestError`] as JSON. A plugin that predates it is
    /// asked through the synchronous [`Self::complete_prompt`], on the thread that polls this
    /// future (the host polls plugin futures on the plugin's own threads).
    fn complete_prompt_with(
        &self,
        index: u32,
        argument: RString,
        value: RString,
        services: CallServicesBox,
    ) -> FfiFuture<RResult<RString, RString>> {
        let _ = services;
        let values = self.complete_prompt(index, argument, value);
        FfiFuture::new(async move { RResult::ROk(values) })
    }
}

/// Why a plugin did not answer a prompt, resource or completion request, as the `Err` of the
/// `*_with` methods of [`PluginInstance`] carries it (JSON `{"kind": …, "message": …}`), so that
/// the host answers with the matching JSON-RPC error.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestError {
    /// What went wrong: [`RequestError::INVALID_PARAMS`], [`RequestError::NOT_FOUND`],
    /// [`RequestError::FAILED`] or [`RequestError::PANICKED`]; a host reads an unknown kind as
    /// `failed`.
    pub kind: String,
    /// The plugin's words, for the client.
    pub message: String,
}

impl RequestError {
    /// The request's arguments are not acceptable.
    pub const INVALID_PARAMS: &'static str = "invalidParams";
    /// Nothing is at the address asked (a resource).
    pub const NOT_FOUND: &'static str = "notFound";
    /// The plugin could not serve the request.
    pub const FAILED: &'static str = "failed";
    /// The plugin's code panicked while serving it.
    pub const PANICKED: &'static str = "panicked";
}

/// Owned plugin instance.
pub type PluginInstanceBox = PluginInstance_TO<'static, RBox<()>>;

/// The root module every plugin library exports.
#[repr(C)]
#[derive(StableAbi)]
#[sabi(kind(Prefix(prefix_ref = PluginModuleRef)))]
#[sabi(missing_field(option))]
pub struct PluginModule {
    /// The plugin's name, as operators enable it in configuration.
    pub name: RStr<'static>,
    /// The plugin's own version.
    pub version: RStr<'static>,
    /// Creates the plugin; an `Err` carries a message for the operator.
    #[sabi(last_prefix_field)]
    pub create: extern "C" fn(HostServicesBox) -> RResult<PluginInstanceBox, RString>,
    /// The JSON Schema of the plugin's own section (`Plugins.Settings.<plugin>`) as JSON text,
    /// or `null` when the plugin declares none; `mcp-plugin-host check` validates the
    /// operator's section against it. Appended: a library that predates it lacks the field,
    /// which the host reads as `None`.
    pub settings_schema: extern "C" fn() -> RString,
}

impl RootModule for PluginModuleRef {
    declare_root_module_statics! {PluginModuleRef}
    const BASE_NAME: &'static str = "mcp_plugin";
    const NAME: &'static str = "mcp_plugin";
    const VERSION_STRINGS: VersionStrings = package_version_strings!();
}

/// The version of this crate, which is the ABI version plugins are checked against.
pub const ABI_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The symbol abi_stable looks up in a plugin library. [`export_plugin!`]
/// spells it as a literal; a test keeps the two in step.
///
/// [`export_plugin!`]: crate::export_plugin
pub const ROOT_SYMBOL: &str = abi_stable::library::ROOT_MODULE_LOADER_NAME;

/// Call services that do nothing (no progress, never cancelled, no client), for tests of what
/// crosses the ABI.
#[cfg(test)]
pub(crate) struct NoServices;

#[cfg(test)]
impl CallServices for NoServices {
    fn progress(&self, _progress: f64, _total: ROption<f64>, _message: ROption<RString>) {}

    fn is_cancelled(&self) -> bool {
        false
    }

    fn cancelled(&self) -> FfiFuture<()> {
        FfiFuture::new(std::future::pending())
    }

    fn features(&self) -> RString {
        RString::from("[]")
    }

    fn log(&self, _level: u8, _message: RStr<'_>) {}

    fn client_request(&self, _method: RString, _params: RString) -> FfiFuture<RResult<RString, RString>> {
        FfiFuture::new(async { RResult::RErr(RString::new()) })
    }
}

#[cfg(test)]
mod tests {
    use abi_stable::{sabi_trait::TD_Opaque, std_types::RResult};

    use super::*;

    /// A plugin that predates the `*_with` methods: it keeps their default bodies, which is
    /// what a host gets from a library whose vtable lacks them.
    struct OldPlugin;

    impl PluginInstance for OldPlugin {
        fn tools(&self) -> RResult<RString, RString> {
            RResult::ROk(RString::from("[]"))
        }

        fn call(&self, _index: u32, _arguments: RString, _services: CallServicesBox) -> FfiFuture<RString> {
            FfiFuture::new(async { RString::new() })
        }

        fn get_prompt(&self, index: u32, arguments: RString) -> FfiFuture<RResult<RString, RString>> {
            FfiFuture::new(async move { RResult::RErr(RString::from(format!("old get_prompt {index} {arguments}"))) })
        }

        fn complete_prompt(&self, index: u32, argument: RString, value: RString) -> RString {
            RString::from(format!("[\"old {index} {argument} {value}\"]"))
        }

        fn read_resource(&self, index: u32, uri: RString) -> FfiFuture<RResult<RString, RString>> {
            FfiFuture::new(async move { RResult::ROk(RString::from(format!("[\"old read {index} {uri}\"]"))) })
        }
    }

    fn services() -> CallServicesBox {
        CallServices_TO::from_value(super::NoServices, TD_Opaque)
    }

    #[test]
    fn a_plugin_that_predates_request_contexts_is_asked_through_its_old_methods() {
        let plugin = PluginInstance_TO::from_value(OldPlugin, TD_Opaque);
        let block_on = futures::executor::block_on::<FfiFuture<RResult<RString, RString>>>;
        assert_eq!(
            block_on(plugin.get_prompt_with(1, RString::from("{}"), services())),
            RResult::RErr(RString::from("old get_prompt 1 {}"))
        );
        assert_eq!(
            block_on(plugin.read_resource_with(2, RString::from("x://y"), RString::from("{}"), services())),
            RResult::ROk(RString::from("[\"old read 2 x://y\"]"))
        );
        assert_eq!(
            block_on(plugin.complete_prompt_with(3, RString::from("a"), RString::from("v"), services())),
            RResult::ROk(RString::from("[\"old 3 a v\"]"))
        );
    }
}
