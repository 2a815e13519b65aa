//! Tools that send notifications while they run: progress reports and log
//! messages, spaced out so that they reach the client before the result.

use std::time::Duration;

use mcp_plugin_api::{CallContext, Tool, ToolOutcome, ToolResult, ToolSpec};
use serde_json::Value;

use crate::fixture;

/// The pause between two notifications of one call.
const PAUSE: Duration = Duration::from_millis(50);

/// The total the progress reports count towards.
const TOTAL: f64 = 100.0;

/// Reports progress 0, 50 and 100 of 100, 50 ms apart, then returns
/// (`tools-call-with-progress`). Without a progress token the host drops
/// the reports and the tool just takes its time.
pub struct TestToolWithProgress;

impl Tool for TestToolWithProgress {
    fn spec(&self) -> ToolSpec {
        fixture(
            "test_tool_with_progress",
            "Tool with progress",
            "Reports progress 0, 50 and 100 out of 100, about 50 ms apart, then returns a text \
             result. Send a progress token to receive the reports. Takes no arguments.",
        )
    }

    async fn call(&self, _args: Value, ctx: CallContext) -> ToolOutcome {
        for (step, progress) in [0.0, 50.0, TOTAL].into_iter().enumerate() {
            if step > 0 {
                tokio::time::sleep(PAUSE).await;
            }
            ctx.progress(progress, Some(TOTAL), None);
        }
        Ok(ToolResult::text("Progress test completed: reported 0, 50 and 100 out of 100."))
    }
}

/// The log messages [`TestToolWithLogging`] sends, in order.
const LOG_MESSAGES: [&str; 3] = ["Tool execution started", "Tool processing data", "Tool execution completed"];

/// Logs three info records, 50 ms apart, which the host forwards to the
/// client as `notifications/message` (`tools-call-with-logging`).
pub struct TestToolWithLogging;

impl Tool for TestToolWithLogging {
    fn spec(&self) -> ToolSpec {
        fixture(
            "test_tool_with_logging",
            "Tool with logging",
            "Sends three info-level log messages about 50 ms apart while it runs (set the logging \
             level to info or lower to receive them), then returns a text result. Takes no \
             arguments.",
        )
    }

    async fn call(&self, _args: Value, ctx: CallContext) -> ToolOutcome {
        let logger = ctx.logger();
        for (step, message) in LOG_MESSAGES.into_iter().enumerate() {
            if step > 0 {
                tokio::time::sleep(PAUSE).await;
            }
            logger.info(message);
        }
        Ok(ToolResult::text("Logging test completed: sent 3 info log messages."))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use mcp_plugin_api::{Level, testkit::TestCall};
    use serde_json::json;

    #[test]
    fn progress_is_reported_three_times_in_order_and_spaced_out() {
        let call = TestCall::new();
        let started = Instant::now();
        let result = call.run(&TestToolWithProgress, json!({}));
        assert!(started.elapsed() >= 2 * PAUSE, "{:?}", started.elapsed());
        assert!(!result.is_error);
        assert!(!result.joined_text().is_empty());
        let reports: Vec<(f64, Option<f64>)> =
            call.progress().iter().map(|report| (report.progress, report.total)).collect();
        assert_eq!(reports, [(0.0, Some(100.0)), (50.0, Some(100.0)), (100.0, Some(100.0))]);
        assert!(call.logs().is_empty());
    }

    #[test]
    fn logging_sends_three_info_records_spaced_out() {
        let call = TestCall::new();
        let started = Instant::now();
        let result = call.run(&TestToolWithLogging, json!({}));
        assert!(started.elapsed() >= 2 * PAUSE, "{:?}", started.elapsed());
        assert_eq!(result.joined_text(), "Logging test completed: sent 3 info log messages.");
        assert_eq!(
            call.logs(),
            [
                (Level::Info, "Tool execution started".to_owned()),
                (Level::Info, "Tool processing data".to_owned()),
                (Level::Info, "Tool execution completed".to_owned()),
            ]
        );
        assert!(call.progress().is_empty());
    }
}
