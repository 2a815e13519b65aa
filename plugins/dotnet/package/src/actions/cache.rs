//! ClearCache: NuGet's caches are the machine's, so clearing one locks `global`.

use dotnet_support::{
    exec::ProgressKind,
    kit::{Call, Outcome, Shape},
    locking::LockTarget,
    params::Kind,
    respond::Reply,
};
use serde_json::{Value, json};

use super::{fields_of, invalid, run, with_common};
use crate::{command, parse};

/// The cache names `nuget locals` accepts.
pub const CACHE_TYPES: [&str; 5] = ["all", "http-cache", "global-packages", "temp", "plugins-cache"];

/// ClearCache: the caches cleared and where they were.
pub fn shape() -> Shape {
    Shape::new(
        with_common(json!({
            "cacheType": { "type": "string", "enum": CACHE_TYPES },
            "cleared": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["cache", "path"],
                    "properties": { "cache": { "type": "string" }, "path": { "type": "string" } }
                }
            }
        })),
        &["cacheType", "cleared", "command", "lockInfo"],
    )
}

/// ClearCache: `nuget locals <cache> --clear` under the machine-wide lock.
pub async fn clear_cache(call: &Call<'_>) -> Outcome {
    let cache = call.params().opt("cacheType", Kind::Identifier)?.unwrap_or("all");
    if !CACHE_TYPES.contains(&cache) {
        let message =
            format!("Invalid argument 'cacheType': must be one of {} (got '{cache}').", CACHE_TYPES.join(", "));
        return Err(invalid("cacheType", "invalid value", &message).into());
    }
    let _guard = call.lock(&LockTarget::global()).await?;
    let description = format!("clearing the NuGet cache '{cache}'");
    let ran = run(call, command::clear_cache(cache), &description, ProgressKind::Lines).await?;
    let cleared = parse::cleared(&ran.outcome.stdout);
    let summary = match cleared.len() {
        0 => format!("Cleared the NuGet cache '{cache}'."),
        count => format!("Cleared {count} NuGet cache{}.", if count == 1 { "" } else { "s" }),
    };
    let lines = cleared.iter().map(|(name, path)| format!("{name}: {path}")).collect();
    let cleared: Vec<Value> = cleared.iter().map(|(name, path)| json!({ "cache": name, "path": path })).collect();
    let structured = fields_of(&ran, json!({ "cacheType": cache, "cleared": cleared }));
    Ok(Reply::new(summary).section("Cleared", lines).structured(structured))
}
