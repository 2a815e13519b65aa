//! The variables a run removes from the environment it inherits (`runner::REMOVED_ENV`). A test
//! binary of its own: it sets an inherited variable in its process, which no other test shares.

use dotnet_support::runner::{Invocation, REMOVED_ENV, RunEnd};

#[tokio::test]
async fn inherited_colour_redirection_is_removed_unless_configured() {
    // SAFETY: the only test of this binary, run before it starts any process or thread that
    // reads the environment.
    unsafe { std::env::set_var(REMOVED_ENV[0], "1") };
    let script = format!("echo \"{0}=${{{0}-unset}}\"", REMOVED_ENV[0]);
    let inherited =
        Invocation::new("sh", ["-c", script.as_str()]).run(std::future::pending::<()>(), |_, _: &str| {}).await;
    assert_eq!(inherited.end, RunEnd::Exited(0), "{}", inherited.transcript);
    assert_eq!(inherited.stdout.trim(), format!("{}=unset", REMOVED_ENV[0]));

    // A value the plugin settings give on purpose stays.
    let configured = Invocation::new("sh", ["-c", script.as_str()])
        .env(REMOVED_ENV[0], "1")
        .run(std::future::pending::<()>(), |_, _: &str| {})
        .await;
    assert_eq!(configured.stdout.trim(), format!("{}=1", REMOVED_ENV[0]));
}
