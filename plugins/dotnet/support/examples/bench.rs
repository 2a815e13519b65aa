use std::time::Instant;
fn main() {
    let cases = [
        "password=".repeat(200_000),
        "-----BEGIN PRIVATE KEY-----".repeat(50_000),
        "https://a:".repeat(200_000),
        "key=key=".repeat(200_000),
        format!("user-secrets set {}", "x ".repeat(200_000)),
        format!("dev-certs https {}", "-p ".repeat(200_000)),
        "eyJ.".repeat(200_000),
        "Bearer ".repeat(200_000),
        " = ".repeat(200_000),
        "a".repeat(10*1024*1024),
        "Password=x;".repeat(200_000),
        "a=b\n".repeat(500_000),
        "token ".repeat(300_000),
    ];
    for (i, c) in cases.iter().enumerate() {
        let t = Instant::now();
        let out = dotnet_support::redact::redact(c);
        println!("{i}: {} bytes -> {} in {:?}", c.len(), out.len(), t.elapsed());
    }
}
