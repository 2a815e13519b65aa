//! What the generator-driven redaction tests share: a seeded generator, the alphabets of real
//! formats, realistic neighbours and a small template language to place values among them.

#![allow(dead_code)] // Each test binary uses its own part.

/// A small deterministic generator (SplitMix64), so every run sees the same secrets and a
/// failure names a case that can be replayed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    /// A random GUID in its usual lower-case form.
    pub fn guid(&mut self) -> String {
        let (a, b, c, d, e) =
            (self.chars(HEX, 8), self.chars(HEX, 4), self.chars(HEX, 4), self.chars(HEX, 4), self.chars(HEX, 12));
        format!("{a}-{b}-{c}-{d}-{e}")
    }

    pub fn chars(&mut self, alphabet: &str, len: usize) -> String {
        let alphabet: Vec<char> = alphabet.chars().collect();
        (0..len).map(|_| alphabet[self.below(alphabet.len())]).collect()
    }
}

pub const LOWER: &str = "abcdefghijklmnopqrstuvwxyz";
pub const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
pub const BASE64: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
pub const BASE64URL: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
pub const HEX: &str = "0123456789abcdef";

/// The neighbours a template names (`{host}`, `{db}`...), drawn from realistic pools.
pub fn neighbour(rng: &mut Rng, name: &str) -> String {
    match name {
        "host" => rng
            .pick(&["db.internal", "localhost", "sql-prod-01.contoso.com", "10.0.4.17", "pg.example.org", "mysql"])
            .to_owned(),
        "db" => rng.pick(&["shop", "Orders_2024", "identity", "app-db", "Inventory"]).to_owned(),
        "user" => rng.pick(&["app", "sa", "svc_orders", "deploy-bot", "admin@contoso.com", "postgres"]).to_owned(),
        "port" => rng.pick(&["5432", "1433", "3306", "6379", "10255", "27017"]).to_owned(),
        "account" => format!("{}{}", rng.pick(&["contoso", "fabrikam", "shop"]), rng.chars(LOWER, 4)),
        "word" => rng.pick(&["Orders", "Billing", "Catalog", "Worker", "Api"]).to_owned(),
        "guid" => rng.guid(),
        other => panic!("no pool for neighbour {other}"),
    }
}

/// Renders a template: `«kind»` is a value of that kind made by `generate`, `{name}` a neighbour.
/// Returns the text and the generated values placed in it.
pub fn render(rng: &mut Rng, template: &str, generate: fn(&mut Rng, &str) -> String) -> (String, Vec<String>) {
    let mut out = String::new();
    let mut secrets = Vec::new();
    let mut rest = template;
    while let Some(at) = rest.find(['«', '{']) {
        out.push_str(&rest[..at]);
        let open = rest[at..].chars().next().unwrap();
        let close = if open == '«' { '»' } else { '}' };
        let body = &rest[at + open.len_utf8()..];
        match body.find(close) {
            Some(end)
                if end > 0
                    && body[..end].bytes().all(|b| b.is_ascii_lowercase() || b == b'_' || b.is_ascii_digit()) =>
            {
                let name = &body[..end];
                if open == '«' {
                    let value = generate(rng, name);
                    out.push_str(&value);
                    secrets.push(value);
                } else {
                    out.push_str(&neighbour(rng, name));
                }
                rest = &body[end + close.len_utf8()..];
            }
            // A brace that is the text's own (JSON, a placeholder).
            _ => {
                out.push(open);
                rest = body;
            }
        }
    }
    out.push_str(rest);
    (out, secrets)
}
