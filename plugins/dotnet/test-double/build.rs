//! Embeds the recordings of the real SDK (`recordings/<scenario>/*.txt`) in `dotnet-double`, so
//! that the binary replays them wherever it is run from: `$OUT_DIR/recordings.rs` holds
//! `RECORDINGS`, `(path relative to recordings/, text)` sorted by path.

use std::{env, fs, path::Path};

fn main() {
    let dir = Path::new(&env::var("CARGO_MANIFEST_DIR").unwrap()).join("recordings");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files = Vec::new();
    if let Ok(scenarios) = fs::read_dir(&dir) {
        for scenario in scenarios.flatten().filter(|entry| entry.path().is_dir()) {
            for file in fs::read_dir(scenario.path()).unwrap().flatten() {
                let path = file.path();
                if path.extension().is_some_and(|ext| ext == "txt") {
                    let relative = path.strip_prefix(&dir).unwrap().to_string_lossy().replace('\\', "/");
                    files.push((relative, path));
                }
            }
        }
    }
    files.sort();
    let mut code = String::from(
        "/// The recordings, `(path, text)`, sorted by path.\npub const RECORDINGS: &[(&str, &str)] = &[\n",
    );
    for (relative, path) in files {
        code.push_str(&format!("    ({relative:?}, include_str!({:?})),\n", path.display().to_string()));
    }
    code.push_str("];\n");
    fs::write(Path::new(&env::var("OUT_DIR").unwrap()).join("recordings.rs"), code).unwrap();
}
