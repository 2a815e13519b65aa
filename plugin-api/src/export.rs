//! Turns a plugin's tools into the ABI's root module, and guards every
//! entry point so that a panic costs one call, never the host.
//!
//! Three things happen here that no plugin author should have to remember:
//!
//! * every call from the host (`create`, `tools`, `call`, prompts, resources,
//!   completions) and every `poll` and `drop` of a returned future runs under
//!   `catch_unwind`; a panic becomes an error the host can report;
//! * every poll runs inside the plugin's own tokio runtime context, because
//!   the plugin's copy of tokio cannot see the host's runtime;
//! * arguments and results are converted from and to JSON text.

use std::{
    any::Any,
    future::Future,
    panic::{AssertUnwindSafe, catch_unwind},
    pin::Pin,
    sync::{Arc, OnceLock},
    task::{Context, Poll},
};

use abi_stable::{
    sabi_trait::TD_Opaque,
    std_types::{RErr, ROk, RResult, RStr, RString},
};
use async_ffi::FfiFuture;
use serde_json::Value;

use crate::{
    BoxedPrompt, BoxedResource, BoxedTool, CallContext, PluginContext, ToolResult,
    abi::{
        CallServicesBox, HostServicesBox, PluginInstance, PluginInstance_TO, PluginInstanceBox, RequestError, level,
    },
};

/// The error a plugin's initialisation may fail with; any error converts.
pub type InitError = Box<dyn std::error::Error + Send + Sync>;

/// A plugin: a name, a version and the tools it builds from its context.
///
/// [`export_plugin!`](crate::export_plugin) implements this for you; implement
/// it by hand only when the macro's form does not fit.
pub trait Plugin: 'static {
    /// The name operators use to enable and configure the plugin.
    const NAME: &'static str;
    /// The plugin's version, shown by `mcp-plugin-host plugins`.
    const VERSION: &'static str;
    /// Builds the plugin's tools. An `Err` refuses the plugin with that
    /// message and leaves the host serving the others.
    fn tools(ctx: &PluginContext) -> Result<Vec<BoxedTool>, InitError>;

    /// The JSON Schema of the plugin's own section of the host's configuration
    /// (`Plugins.Settings.<NAME>`), so that `mcp-plugin-host check` can tell the operator
    /// about a misspelled key or a value of the wrong type before the plugin runs. `None`
    /// (the default) declares none and leaves the section unchecked.
    fn settings_schema() -> Option<Value> {
        None
    }

    /// Builds the plugin's prompts (none by default).
    fn prompts(ctx: &PluginContext) -> Result<Vec<BoxedPrompt>, InitError> {
        let _ = ctx;
        Ok(Vec::new())
    }

    /// Builds the plugin's resources (none by default).
    fn resources(ctx: &PluginContext) -> Result<Vec<BoxedResource>, InitError> {
        let _ = ctx;
        Ok(Vec::new())
    }
}

/// Everything a plugin serves.
struct Offer {
    tools: Vec<BoxedTool>,
    prompts: Vec<BoxedPrompt>,
    resources: Vec<BoxedResource>,
}

/// Describes a panic payload for a human.
pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic with a non-string payload".to_owned()
    }
}

/// Drops a value, swallowing a panic in its destructor.
pub(crate) fn drop_guarded<T>(value: T) {
    if let Err(payload) = catch_unwind(AssertUnwindSafe(move || drop(value))) {
        // The payload's own destructor could panic too; leak it rather than abort.
        std::mem::forget(payload);
    }
}

/// The tokio runtime a plugin runs its calls in, started on first use so
/// that an idle plugin costs no thread.
pub(crate) struct PluginRuntime {
    name: &'static str,
    runtime: OnceLock<tokio::runtime::Runtime>,
}

impl PluginRuntime {
    pub(crate) fn new(name: &'static str) -> Self {
        Self { name, runtime: OnceLock::new() }
    }

    pub(crate) fn get(&self) -> &tokio::runtime::Runtime {
        self.runtime.get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .thread_name(format!("plugin-{}", self.name))
                .enable_all()
                .build()
                .expect("the plugin's tokio runtime could not start")
        })
    }
}

impl Drop for PluginRuntime {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// A future that polls its inner future inside the plugin's runtime
/// context and turns a panic into `Err` with the panic's message (after
/// telling `on_panic`).
pub(crate) struct Guarded<F> {
    inner: Option<Pin<Box<F>>>,
    runtime: Arc<PluginRuntime>,
    on_panic: Box<dyn Fn(&str) + Send + Sync>,
}

impl<F: Future> Guarded<F> {
    pub(crate) fn new(inner: F, runtime: Arc<PluginRuntime>, on_panic: Box<dyn Fn(&str) + Send + Sync>) -> Self {
        Self { inner: Some(Box::pin(inner)), runtime, on_panic }
    }
}

impl<F: Future> Future for Guarded<F> {
    type Output = Result<F::Output, String>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        let Some(inner) = this.inner.as_mut() else {
            return Poll::Ready(Err("the request was polled after it finished".to_owned()));
        };
        let polled = catch_unwind(AssertUnwindSafe(|| {
            let _context = this.runtime.get().enter();
            inner.as_mut().poll(cx)
        }));
        match polled {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(output)) => {
                this.drop_inner();
                Poll::Ready(Ok(output))
            }
            Err(payload) => {
                let message = panic_message(payload.as_ref());
                std::mem::forget(payload);
                this.drop_inner();
                (this.on_panic)(&message);
                Poll::Ready(Err(message))
            }
        }
    }
}

impl<F> Guarded<F> {
    fn drop_inner(&mut self) {
        if let Some(inner) = self.inner.take() {
            // Resources such as timers and child processes deregister from
            // the plugin's runtime as they drop.
            let runtime = self.runtime.get();
            let _context = runtime.enter();
            drop_guarded(inner);
        }
    }
}

impl<F> Drop for Guarded<F> {
    fn drop(&mut self) {
        self.drop_inner();
    }
}

/// One live plugin as the ABI sees it.
struct Exported {
    name: &'static str,
    offer: Offer,
    host: Arc<HostServicesBox>,
    runtime: Arc<PluginRuntime>,
}

impl Drop for Exported {
    /// The host drops a plugin at shutdown: its tools (and whatever they own, such as background
    /// processes) are dropped inside the plugin's runtime, and a panic there cannot abort the host.
    fn drop(&mut self) {
        let offer =
            std::mem::replace(&mut self.offer, Offer { tools: Vec::new(), prompts: Vec::new(), resources: Vec::new() });
        let _context = self.runtime.runtime.get().map(tokio::runtime::Runtime::enter);
        drop_guarded(offer);
    }
}

impl Exported {
    /// Tells the host's log of a panic in `what`.
    fn panic_logger(&self, what: &'static str) -> Box<dyn Fn(&str) + Send + Sync> {
        let host = Arc::clone(&self.host);
        Box::new(move |message: &str| {
            host.log(level::ERROR, RStr::from(format!("{what} panicked: {message}").as_str()));
        })
    }

    /// Runs a prompt, resource or completion request guarded, in the plugin's runtime, and
    /// encodes its answer: JSON on success, a [`RequestError`] as JSON on failure.
    fn request<F>(&self, what: &'static str, work: F) -> FfiFuture<RResult<RString, RString>>
    where
        F: Future<Output = Result<String, RequestError>> + Send + 'static,
    {
        let guarded = Guarded::new(work, Arc::clone(&self.runtime), self.panic_logger(what));
        FfiFuture::new(async move {
            let failed = match guarded.await {
                Ok(Ok(json)) => return ROk(RString::from(json)),
                Ok(Err(error)) => error,
                Err(panic) => RequestError { kind: RequestError::PANICKED.to_owned(), message: panic },
            };
            RErr(RString::from(serde_json::to_string(&failed).unwrap_or_default()))
        })
    }

    /// The answer of a request with the legacy entry points' `Err`: a plain message.
    fn legacy(answer: FfiFuture<RResult<RString, RString>>) -> FfiFuture<RResult<RString, RString>> {
        FfiFuture::new(async move {
            match answer.await {
                ROk(json) => ROk(json),
                RErr(json) => RErr(RString::from(
                    serde_json::from_str::<RequestError>(json.as_str()).map(|error| error.message).unwrap_or_default(),
                )),
            }
        })
    }

    /// The context of a request from a host that predates request contexts.
    fn detached(&self) -> CallContext {
        CallContext::detached(Some(Arc::clone(&self.host)))
    }
}

/// A failure of the plugin's own making (malformed arguments, an unknown item).
fn failed(message: impl Into<String>) -> RequestError {
    RequestError { kind: RequestError::FAILED.to_owned(), message: message.into() }
}

/// Serializes a list of specs to a JSON array (empty if it cannot be).
fn specs_json<T: serde::Serialize>(specs: impl Iterator<Item = T>) -> RString {
    let specs: Vec<T> = specs.collect();
    RString::from(serde_json::to_string(&specs).unwrap_or_else(|_| "[]".to_owned()))
}

impl PluginInstance for Exported {
    fn tools(&self) -> RResult<RString, RString> {
        let listed = catch_unwind(AssertUnwindSafe(|| {
            let specs: Vec<_> = self.offer.tools.iter().map(BoxedTool::spec).collect();
            serde_json::to_string(&specs).map_err(|error| error.to_string())
        }));
        match listed {
            Ok(Ok(json)) => ROk(RString::from(json)),
            Ok(Err(error)) => RErr(RString::from(format!("tool descriptors could not be serialized: {error}"))),
            Err(payload) => RErr(RString::from(format!("listing tools panicked: {}", panic_message(payload.as_ref())))),
        }
    }

    fn call(&self, index: u32, arguments: RString, services: CallServicesBox) -> FfiFuture<RString> {
        let tool = self.offer.tools.get(index as usize).cloned();
        let plugin = self.name;
        let work = async move {
            let Some(tool) = tool else {
                return ToolResult::error(format!("plugin '{plugin}' has no tool number {index}"));
            };
            let args: Value = match serde_json::from_str(arguments.as_str()) {
                Ok(args) => args,
                Err(error) => {
                    return ToolResult::error(format!("the arguments are not valid JSON: {error}"));
                }
            };
            match tool.call(args, CallContext::from_host(services)).await {
                Ok(result) => result,
                Err(error) => error.into_result(),
            }
        };
        let guarded = Guarded::new(work, Arc::clone(&self.runtime), self.panic_logger("a call"));
        FfiFuture::new(async move {
            let result = guarded.await.unwrap_or_else(|message| {
                ToolResult::error(format!(
                    "The tool failed unexpectedly (it panicked: {message}). The server is still running; the call \
                     can be retried."
                ))
            });
            RString::from(encode_result(&result))
        })
    }

    fn prompts(&self) -> RString {
        catch_unwind(AssertUnwindSafe(|| specs_json(self.offer.prompts.iter().map(BoxedPrompt::spec))))
            .unwrap_or_else(|_| RString::from("[]"))
    }

    fn get_prompt(&self, index: u32, arguments: RString) -> FfiFuture<RResult<RString, RString>> {
        Self::legacy(self.render(index, arguments, self.detached()))
    }

    fn get_prompt_with(
        &self,
        index: u32,
        arguments: RString,
        services: CallServicesBox,
    ) -> FfiFuture<RResult<RString, RString>> {
        self.render(index, arguments, CallContext::from_host(services))
    }

    fn complete_prompt(&self, index: u32, argument: RString, value: RString) -> RString {
        // A host that predates asynchronous completion asks on a thread of its own: the values
        // are awaited there, in the plugin's runtime.
        let completing = self.complete(index, argument, value, self.detached());
        let answer = catch_unwind(AssertUnwindSafe(|| self.runtime.get().block_on(completing)));
        match answer {
            Ok(ROk(values)) => values,
            _ => RString::from("[]"),
        }
    }

    fn complete_prompt_with(
        &self,
        index: u32,
        argument: RString,
        value: RString,
        services: CallServicesBox,
    ) -> FfiFuture<RResult<RString, RString>> {
        self.complete(index, argument, value, CallContext::from_host(services))
    }

    fn resources(&self) -> RString {
        catch_unwind(AssertUnwindSafe(|| specs_json(self.offer.resources.iter().map(BoxedResource::spec))))
            .unwrap_or_else(|_| RString::from("[]"))
    }

    fn read_resource(&self, index: u32, uri: RString) -> FfiFuture<RResult<RString, RString>> {
        Self::legacy(self.read(index, uri, RString::from("{}"), self.detached()))
    }

    fn read_resource_in(&self, index: u32, uri: RString, request: RString) -> FfiFuture<RResult<RString, RString>> {
        Self::legacy(self.read(index, uri, request, self.detached()))
    }

    fn read_resource_with(
        &self,
        index: u32,
        uri: RString,
        request: RString,
        services: CallServicesBox,
    ) -> FfiFuture<RResult<RString, RString>> {
        self.read(index, uri, request, CallContext::from_host(services))
    }
}

impl Exported {
    /// Renders prompt `index` for the request of `ctx`.
    fn render(&self, index: u32, arguments: RString, ctx: CallContext) -> FfiFuture<RResult<RString, RString>> {
        let prompt = self.offer.prompts.get(index as usize).cloned();
        self.request("rendering a prompt", async move {
            let prompt = prompt.ok_or_else(|| failed(format!("no prompt number {index}")))?;
            let arguments = serde_json::from_str(arguments.as_str())
                .map_err(|error| failed(format!("the arguments are not a JSON object: {error}")))?;
            let result = prompt.get_with(arguments, ctx).await.map_err(|error| error.to_request_error())?;
            serde_json::to_string(&result).map_err(|error| failed(error.to_string()))
        })
    }

    /// Completion values for an argument of prompt `index`, for the request of `ctx`.
    fn complete(
        &self,
        index: u32,
        argument: RString,
        value: RString,
        ctx: CallContext,
    ) -> FfiFuture<RResult<RString, RString>> {
        let prompt = self.offer.prompts.get(index as usize).cloned();
        self.request("completing a prompt argument", async move {
            let prompt = prompt.ok_or_else(|| failed(format!("no prompt number {index}")))?;
            let values = prompt.complete_with(&argument, &value, ctx).await;
            serde_json::to_string(&values).map_err(|error| failed(error.to_string()))
        })
    }

    /// Reads `uri` through resource `index` for the request of `ctx`.
    fn read(
        &self,
        index: u32,
        uri: RString,
        request: RString,
        ctx: CallContext,
    ) -> FfiFuture<RResult<RString, RString>> {
        let resource = self.offer.resources.get(index as usize).cloned();
        self.request("reading a resource", async move {
            let resource = resource.ok_or_else(|| failed(format!("no resource number {index}")))?;
            // A request the plugin cannot read costs the client-specific part, never the read.
            let request = serde_json::from_str(request.as_str()).unwrap_or_default();
            let contents =
                resource.read_with(uri.into_string(), request, ctx).await.map_err(|error| error.to_request_error())?;
            serde_json::to_string(&contents).map_err(|error| failed(error.to_string()))
        })
    }
}

/// Serializes a result; a result that cannot be serialized becomes an error.
fn encode_result(result: &ToolResult) -> String {
    serde_json::to_string(result).unwrap_or_else(|error| {
        serde_json::to_string(&ToolResult::error(format!("the result could not be serialized: {error}")))
            .unwrap_or_default()
    })
}

/// The body of the root module's `create` for plugin `P`.
#[doc(hidden)]
pub extern "C" fn create<P: Plugin>(host: HostServicesBox) -> RResult<PluginInstanceBox, RString> {
    let runtime = Arc::new(PluginRuntime::new(P::NAME));
    let host = Arc::new(host);
    let built = catch_unwind(AssertUnwindSafe(|| -> Result<Offer, InitError> {
        let ctx = PluginContext::from_host(Arc::clone(&host));
        let _context = runtime.get().enter();
        Ok(Offer { tools: P::tools(&ctx)?, prompts: P::prompts(&ctx)?, resources: P::resources(&ctx)? })
    }));
    match built {
        Ok(Ok(offer)) => {
            let instance = Exported { name: P::NAME, offer, host, runtime };
            ROk(PluginInstance_TO::from_value(instance, TD_Opaque))
        }
        Ok(Err(error)) => RErr(RString::from(format!("plugin initialisation failed: {error}"))),
        Err(payload) => {
            RErr(RString::from(format!("plugin initialisation panicked: {}", panic_message(payload.as_ref()))))
        }
    }
}

/// The body of the root module's `settings_schema` for plugin `P`: the schema as JSON text,
/// `null` when there is none (or when building it panicked, which the host then cannot check).
#[doc(hidden)]
pub extern "C" fn settings_schema<P: Plugin>() -> RString {
    let schema = catch_unwind(P::settings_schema).ok().flatten().unwrap_or(Value::Null);
    RString::from(schema.to_string())
}

/// The root module for plugin `P`, built once and leaked as abi_stable expects.
#[doc(hidden)]
pub fn root_module<P: Plugin>() -> crate::abi::PluginModuleRef {
    use abi_stable::prefix_type::PrefixTypeTrait;
    crate::abi::PluginModule {
        name: RStr::from_str(P::NAME),
        version: RStr::from_str(P::VERSION),
        create: create::<P>,
        settings_schema: settings_schema::<P>,
    }
    .leak_into_prefix()
}

/// Exports a plugin from a `cdylib` crate.
///
/// ```ignore
/// mcp_plugin_api::export_plugin! {
///     name: "sample",
///     version: env!("CARGO_PKG_VERSION"),
///     tools: |ctx| Ok(vec![Echo.into()]),
/// }
/// ```
///
/// The optional `settings_schema` entry, before `tools`, is a `serde_json::Value`: the JSON
/// Schema of the plugin's section of the host's configuration (see [`Plugin::settings_schema`]).
/// `tools` receives a [`&PluginContext`](crate::PluginContext) and returns
/// `Result<Vec<BoxedTool>, InitError>`; the optional `prompts` and
/// `resources` entries, after it, return `BoxedPrompt`s and
/// `BoxedResource`s the same way. The macro also accepts a type that
/// implements [`Plugin`]: `export_plugin!(MyPlugin);`. Exactly one plugin
/// per library.
#[macro_export]
macro_rules! export_plugin {
    (
        name: $name:expr,
        version: $version:expr,
        $(settings_schema: $settings_schema:expr,)?
        tools: |$ctx:ident| $body:expr
        $(, prompts: |$prompts_ctx:ident| $prompts:expr)?
        $(, resources: |$resources_ctx:ident| $resources:expr)?
        $(,)?
    ) => {
        #[doc(hidden)]
        pub struct __McpExportedPlugin;

        impl $crate::Plugin for __McpExportedPlugin {
            const NAME: &'static str = $name;
            const VERSION: &'static str = $version;
            $(
                fn settings_schema() -> ::core::option::Option<$crate::__private::Value> {
                    ::core::option::Option::Some($settings_schema)
                }
            )?
            fn tools(
                $ctx: &$crate::PluginContext,
            ) -> ::core::result::Result<::std::vec::Vec<$crate::BoxedTool>, $crate::InitError> {
                $body
            }
            $(
                fn prompts(
                    $prompts_ctx: &$crate::PluginContext,
                ) -> ::core::result::Result<::std::vec::Vec<$crate::BoxedPrompt>, $crate::InitError> {
                    $prompts
                }
            )?
            $(
                fn resources(
                    $resources_ctx: &$crate::PluginContext,
                ) -> ::core::result::Result<::std::vec::Vec<$crate::BoxedResource>, $crate::InitError> {
                    $resources
                }
            )?
        }

        $crate::export_plugin!(__McpExportedPlugin);
    };
    ($plugin:ty) => {
        #[doc(hidden)]
        #[unsafe(export_name = "_1as_0lib_1header_0root_bmodule_bloader")]
        pub static __MCP_PLUGIN_ROOT_MODULE: $crate::__private::LibHeader = {
            extern "C" fn __mcp_erased_module() -> $crate::__private::RootModuleResult {
                $crate::__private::__call_root_module_loader($crate::__private::root_module::<$plugin>)
            }
            unsafe {
                $crate::__private::LibHeader::from_constructor::<$crate::abi::PluginModuleRef>(
                    __mcp_erased_module,
                    $crate::__private::CheckTypeLayout::Yes,
                )
            }
        };
    };
}

#[cfg(test)]
mod tests {
    use abi_stable::{
        sabi_trait::TD_Opaque,
        std_types::{ROption, RResult},
    };

    use super::*;
    use crate::{
        Content, Prompt, PromptMessage, PromptResult, PromptSpec, ToolError,
        abi::{CallServices_TO, HostServices, HostServices_TO},
    };

    struct Host;

    impl HostServices for Host {
        fn plugin_config(&self) -> RString {
            RString::from("{}")
        }

        fn shared_config(&self, _key: RStr<'_>) -> ROption<RString> {
            ROption::RNone
        }

        fn log(&self, _level: u8, _message: RStr<'_>) {}
    }

    /// A prompt that implements only the request forms: `mode` chooses its answer.
    struct Modal;

    impl Prompt for Modal {
        fn spec(&self) -> PromptSpec {
            PromptSpec::new("modal", "Answers as `mode` says.")
        }

        async fn get_with(
            &self,
            arguments: serde_json::Map<String, Value>,
            _ctx: CallContext,
        ) -> Result<PromptResult, ToolError> {
            match arguments.get("mode").and_then(Value::as_str) {
                Some("invalid") => Err(ToolError::invalid_argument("mode", "refused")),
                Some("panic") => panic!("modal panicked"),
                _ => Ok(PromptResult::new(vec![PromptMessage::user(Content::text("rendered"))])),
            }
        }

        async fn complete_with(&self, argument: &str, value: &str, _ctx: CallContext) -> Vec<String> {
            vec![format!("{argument}={value}")]
        }
    }

    struct ModalPlugin;

    impl Plugin for ModalPlugin {
        const NAME: &'static str = "modal";
        const VERSION: &'static str = "1.0.0";

        fn tools(_ctx: &PluginContext) -> Result<Vec<BoxedTool>, InitError> {
            Ok(Vec::new())
        }

        fn prompts(_ctx: &PluginContext) -> Result<Vec<BoxedPrompt>, InitError> {
            Ok(vec![Modal.into()])
        }
    }

    fn plugin() -> PluginInstanceBox {
        match create::<ModalPlugin>(HostServices_TO::from_value(Host, TD_Opaque)) {
            ROk(plugin) => plugin,
            RErr(problem) => panic!("{problem}"),
        }
    }

    fn services() -> CallServicesBox {
        CallServices_TO::from_value(crate::abi::NoServices, TD_Opaque)
    }

    fn error(answer: RResult<RString, RString>) -> RequestError {
        match answer {
            RErr(json) => serde_json::from_str(json.as_str()).unwrap(),
            ROk(json) => panic!("an error, not {json}"),
        }
    }

    #[test]
    fn requests_carry_typed_errors_and_panics_cost_one_request() {
        let plugin = plugin();
        let ask = |mode: &str| {
            futures::executor::block_on(plugin.get_prompt_with(
                0,
                RString::from(format!("{{\"mode\":\"{mode}\"}}")),
                services(),
            ))
        };
        assert!(matches!(ask("ok"), ROk(json) if json.contains("rendered")));
        assert_eq!(error(ask("invalid")).kind, RequestError::INVALID_PARAMS);
        let panicked = error(ask("panic"));
        assert_eq!((panicked.kind.as_str(), panicked.message.as_str()), (RequestError::PANICKED, "modal panicked"));
        let missing = error(futures::executor::block_on(plugin.get_prompt_with(7, RString::from("{}"), services())));
        assert_eq!(missing.kind, RequestError::FAILED);
        let values = futures::executor::block_on(plugin.complete_prompt_with(
            0,
            RString::from("a"),
            RString::from("v"),
            services(),
        ));
        assert_eq!(values, ROk(RString::from("[\"a=v\"]")));
    }

    #[test]
    fn a_host_that_predates_request_contexts_reaches_the_same_prompt() {
        let plugin = plugin();
        let rendered = futures::executor::block_on(plugin.get_prompt(0, RString::from("{}")));
        assert!(matches!(rendered, ROk(json) if json.contains("rendered")));
        // The old entry points' `Err` is the plain message.
        let refused = futures::executor::block_on(plugin.get_prompt(0, RString::from("{\"mode\":\"invalid\"}")));
        assert_eq!(refused, RErr(RString::from("Invalid argument 'mode': refused")));
        // Synchronous completion, answered from the asynchronous one.
        assert_eq!(plugin.complete_prompt(0, RString::from("a"), RString::from("v")), RString::from("[\"a=v\"]"));
    }
}
