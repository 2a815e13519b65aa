//! The harness the tests of `dotnet_tool` share.

use dotnet_support::testkit::{Double, Harness};
use dotnet_tool::DotnetTool;
use serde_json::json;

/// `dotnet_tool` on the test double.
pub type Tools = Harness<DotnetTool>;

/// A scratch folder holding `work/` with a local tool manifest where SDK 10 writes it
/// (`work/dotnet-tools.json`), the plugin's working directory; the double streams for one second
/// in the `slow` scenario. In the default scenario the double replays what SDK 10.0.401 printed
/// in the real-SDK scenario `tools` (recordings/tools): csharpier 1.1.2 installed, updated to
/// 1.4.0, run, restored and uninstalled.
pub fn harness_with(configure: impl FnOnce(Double) -> Double) -> Tools {
    Tools::with(|dir, double| {
        let work = dir.join("work");
        std::fs::create_dir_all(&work).unwrap();
        std::fs::write(work.join("dotnet-tools.json"), r#"{"version":1,"isRoot":true,"tools":{}}"#).unwrap();
        configure(double.env("DOTNET_DOUBLE_SLOW_SECS", "1").setting("WorkingDirectory", json!(work)))
    })
}
