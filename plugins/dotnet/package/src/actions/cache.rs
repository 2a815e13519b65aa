//! ClearCache: NuGet's caches are the machine's, so clearing one locks `global`.

use dotnet_support::{
    exec::ProgressKind,
    kit::{Call, Outcome, Reason, invalid, prose},
    locking::LockTarget,
    params::Kind,
    respond::Reply,
};
use schemars::JsonSchema;
use serde::Serialize;

use super::run;
use crate::{
    command,
    parse::{self, Cache},
};

/// The cache names `nuget locals` accepts.
pub const CACHE_TYPES: [&str; 5] = ["all", "http-cache", "global-packages", "temp", "plugins-cache"];

/// One of [`CACHE_TYPES`].
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(transparent)]
pub struct CacheType(&'static str);

dotnet_support::string_enum_schema!(CacheType, "CacheType", CACHE_TYPES);

// ClearCache: the cache asked for, and each cache cleared with its folder.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Cleared {
    cache_type: CacheType,
    cleared: Vec<Cache>,
}

/// ClearCache: `nuget locals <cache> --clear` under the machine-wide lock.
pub async fn clear_cache(call: &Call<'_>) -> Outcome {
    let given = call.params().opt("cacheType", Kind::Identifier)?.unwrap_or("all");
    let Some(cache) = CACHE_TYPES.into_iter().find(|known| *known == given) else {
        let message =
            format!("Invalid argument 'cacheType': must be one of {} (got '{given}').", CACHE_TYPES.join(", "));
        return Err(invalid("cacheType", Reason::Value, message).into());
    };
    let _guard = call.lock(&LockTarget::global()).await?;
    let description = format!("clearing the NuGet cache '{cache}'");
    let ran = run(call, command::clear_cache(cache), &description, ProgressKind::Lines).await?;
    let cleared = parse::cleared(&ran.outcome.stdout);
    let summary = match cleared.len() {
        0 => format!("Cleared the NuGet cache '{cache}'."),
        count => format!("Cleared {}.", prose::count(count, "NuGet cache")),
    };
    let lines = cleared.iter().map(|Cache { cache, path }| format!("{cache}: {path}")).collect();
    Ok(Reply::new(summary).section("Cleared", lines).result(Cleared { cache_type: CacheType(cache), cleared }))
}
