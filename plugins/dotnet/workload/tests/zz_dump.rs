use dotnet_support::testkit::Harness;
use dotnet_workload::DotnetWorkload;
use mcp_plugin_api::Tool;
#[test]
fn dump() {
    let h = Harness::<DotnetWorkload>::new();
    let spec = h.tool.spec();
    println!("SCHEMA {}", serde_json::to_string_pretty(spec.get_output_schema().unwrap()).unwrap());
    println!("LEN {}", spec.get_output_schema().unwrap().to_string().len());
}
