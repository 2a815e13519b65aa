//! Free text and other languages: the word for a password or an API key in other languages,
//! and whether a word after such a word in a sentence is the value or the sentence going on.

use std::borrow::Cow;

use regex::Captures;

use super::{
    keys::is_guid,
    labelled::{keep, text},
    patterns::{CONTEXT_FREE, SHAPES, redact_with},
    stand_in::{PATH, is_stand_in, is_version, mask, unwrap},
    tokens::{short_random_key, vendor_token},
};

/// The word for a password (or an API key) in other languages, lower-cased, as labels in
/// localized logs and messages write it (`Passwort=`, `mot de passe:`, `contraseña:`, `пароль=`,
/// `密码=`, `APIキー:`). A name that contains one is secret.
pub(super) const FOREIGN_SECRET_WORDS: &[&str] = &[
    "passwort",
    "kennwort",
    "mot de passe",
    "mot_de_passe",
    "contraseña",
    "contrasena",
    "senha",
    "palavra-passe",
    "пароль",
    "парола",
    "hasło",
    "haslo",
    "şifre",
    "sifre",
    "wachtwoord",
    "lösenord",
    "losenord",
    "adgangskode",
    "passord",
    "salasana",
    "heslo",
    "jelszó",
    "parolă",
    "κωδικός",
    "パスワード",
    "apiキー",
    "api キー",
    "密码",
    "密碼",
    "口令",
    "api密钥",
    "api 密钥",
    "비밀번호",
    "암호",
    "api 키",
    "api키",
    "كلمة المرور",
    "סיסמה",
    "mật khẩu",
    "kata sandi",
    "पासवर्ड",
    "รหัสผ่าน",
    "contrasenya",
    "parola",
    "api-avain",
    "api klíč",
    "api-nyckel",
    // Batch 10: the word for a password in more languages (Slovenian, Serbian and Croatian,
    // Macedonian, Estonian, Latvian, Lithuanian, Icelandic, Albanian, Malay, Swahili, Kazakh,
    // Kyrgyz, Mongolian, Uzbek and Tajik, Azerbaijani, Georgian, Armenian, Urdu, Persian, Bengali,
    // Tamil, Telugu, Sinhala, Khmer, Lao, Burmese, Amharic, Welsh, Irish, Basque, Galician,
    // Afrikaans), so a sentence in any of them hides the value after it as English does.
    "geslo",
    "lozinka",
    "лозинка",
    "parool",
    "salasõna",
    "parole",
    "slaptažodis",
    "lykilorð",
    "fjalëkalim",
    "kata laluan",
    "nenosiri",
    "құпия сөз",
    "сырсөз",
    "нууц үг",
    "parol",
    "парол",
    "şifrə",
    "პაროლი",
    "գաղտնաբառ",
    "پاس ورڈ",
    "رمز عبور",
    "گذرواژه",
    "পাসওয়ার্ড",
    "கடவுச்சொல்",
    "పాస్‌వర్డ్",
    "මුරපදය",
    "ពាក្យសម្ងាត់",
    "ລະຫັດຜ່ານ",
    "စကားဝှက်",
    "የይለፍ ቃል",
    "cyfrinair",
    "pasfhocal",
    "pasahitza",
    "contrasinal",
    "wagwoord",
    // Batch 11: Marathi, Gujarati, Punjabi, Kannada, Malayalam, Zulu and Xhosa, Hausa, Yoruba,
    // Igbo, Luxembourgish, Frisian, Haitian Creole, Malagasy.
    "संकेतशब्द",
    "પાસવર્ડ",
    "ਪਾਸਵਰਡ",
    "ಪಾಸ್‌ವರ್ಡ್",
    "പാസ്‌വേഡ്",
    "iphasiwedi",
    "kalmar sirri",
    "ọrọ igbaniwọle",
    "okwuntughe",
    "passwuert",
    "wachtwurd",
    "modpas",
    "teny miafina",
    // The Wi-Fi key `netsh wlan show profile key=clear` prints (`Key Content`, German
    // `Schlüsselinhalt`, French `Contenu de la clé`, Spanish `Contenido de la clave`).
    "key content",
    "schlüsselinhalt",
    "contenu de la clé",
    "contenido de la clave",
];

/// "API key" in other languages as a sentence writes it before the key with no separator
/// (`Chave da API 0a1b...`, `API-lykill ...`, `API কী ...`): the value is hidden when it looks
/// generated, as after `api key` in English.
pub(super) const FOREIGN_KEY_WORDS: &[&str] = &[
    "chave da api",
    "chave de api",
    "clave de api",
    "clave de la api",
    "clé api",
    "clé d'api",
    "chiave api",
    "api-schlüssel",
    "api-sleutel",
    "klucz api",
    "ключ api",
    "api anahtarı",
    "api-lykill",
    "api কী",
    "api की",
    // Batch 10: "API key" in more languages (Estonian, Latvian, Lithuanian, Hungarian, Serbian
    // and Croatian, Slovak, Romanian, Catalan, Danish, Norwegian, Malay and Indonesian, Basque,
    // Persian, Arabic, Hebrew, Greek, Georgian, Kazakh, Ukrainian, Vietnamese, Thai, Hindi,
    // traditional Chinese).
    "api võti",
    "api atslēga",
    "api raktas",
    "api kulcs",
    "api-kulcs",
    "api ključ",
    "api-ključ",
    "ključ api",
    "kľúč api",
    "cheie api",
    "cheia api",
    "clau api",
    "clau de l'api",
    "api-nøgle",
    "api-nøkkel",
    "kunci api",
    "api gakoa",
    "کلید api",
    "مفتاح api",
    "מפתח api",
    "κλειδί api",
    "api გასაღები",
    "api кілті",
    "api ключ",
    "khóa api",
    "คีย์ api",
    "api कुंजी",
    "api 金鑰",
    "api 密鑰",
    // "Access token" and "token" (`токен доступа X`, `jeton d'accès X`, `Zugriffstoken X`).
    "токен доступа",
    "токен",
    "jeton d'accès",
    "zugriffstoken",
    "token de acceso",
    "token di accesso",
    "访问令牌",
];

/// Whether a bare word after `password` in free text is one (`password hunter2`, `the password is
/// S3cr3t!`) rather than the sentence going on (`password must be`, `password re-entered`): it
/// has a digit, or a symbol and both cases, and is not a path or a stand-in.
pub(super) fn password_like(value: &str) -> bool {
    let value = value.trim_end_matches(['.', ',', ';', ':', ')']);
    let has = |test: fn(&char) -> bool| value.chars().any(|c| test(&c));
    let symbol = has(|c| c.is_ascii_punctuation());
    value.chars().count() >= 6
        && has(char::is_ascii_alphanumeric)
        && (has(char::is_ascii_digit) || symbol && has(char::is_ascii_uppercase) && has(char::is_ascii_lowercase))
        && !value.starts_with(['(', '[', '<', '{'])
        && !value.contains("://")
        && !is_stand_in(value)
        && !PATH.is_match(value)
}

/// Whether a bare word after `token`, `secret` or `api key` in free text is a generated value:
/// 16 or more characters of a token's alphabet, with letters and digits, and no version.
pub(super) fn generated_token(value: &str) -> bool {
    value.len() >= 16
        && !is_version(value)
        && value.bytes().all(|b| b.is_ascii_alphanumeric() || b"_-.+/=".contains(&b))
        && value.bytes().any(|b| b.is_ascii_digit())
        && value.bytes().any(|b| b.is_ascii_alphabetic())
}

/// Whether a word after the bare word `key` in free text is a random token: letters, digits, `-`
/// and `_` only (a public key's base64 has `+`, `/` and `=`) that pass [`vendor_token`]'s entropy
/// test (a hex fingerprint or key id, a GUID, a name do not) or, shorter, [`short_random_key`]'s
/// (`configured Seq client with key X`), and not public key material in the clear (an SSH key
/// blob starts with `AAAA`, a DER key or certificate with `MII`).
fn random_key_value(value: &str) -> bool {
    value.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        && !value.starts_with("AAAA")
        && !value.starts_with("MII")
        && (vendor_token(value) || short_random_key(value))
}

/// Whether `c` is a letter of a script written without blanks between words and a value (Hangul,
/// kana, CJK ideographs), so a message in it can follow a value with no separator.
pub(super) fn other_script(c: char) -> bool {
    matches!(c, '\u{1100}'..='\u{11FF}' | '\u{3040}'..='\u{30FF}' | '\u{3130}'..='\u{318F}' | '\u{3400}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7AF}')
}

/// A value in free text after the word that names it (the `prose` form of `rules`).
pub(super) fn prose(caps: &Captures<'_>, label: &str) -> String {
    let whole = &caps[0];
    // `Public key token is ...` (`sn -tp`) names a public key's hash.
    if caps.name("prose_public").is_some() {
        return whole.to_owned();
    }
    let value = caps.name("prose_val").or(caps.name("prose_word")).map_or("", |m| m.as_str());
    // Punctuation that ends the sentence is not part of the value (`admin key abc123).`).
    let core = if caps.name("prose_word").is_some() {
        value.trim_end_matches(['.', ',', ';', ':', ')', ']', '}'])
    } else {
        value
    };
    let end = format!("{}{}", &value[core.len()..], text(caps, "prose_end"));
    // A token known by its shape keeps its prefix (`token hvs.[REDACTED]`).
    if let Cow::Owned(_) = redact_with(&SHAPES, core) {
        return format!("{}{end}", keep(label, core));
    }
    let quoted = core.starts_with(['"', '\'']) || core.starts_with("&quot;");
    let secret = if caps.name("prose_key_public").is_some() {
        false
    } else if caps.name("prose_key").is_some() || caps.name("prose_next_key").is_some() {
        random_key_value(unwrap(core).1)
    } else if caps.name("prose_next_pw").is_some() {
        quoted || password_like(core)
    } else if caps.name("prose_next").is_some() {
        generated_token(unwrap(core).1)
    } else if caps.name("prose_cred").is_some() {
        // `with credential X` names a kind as often as it gives one: only a password-like word.
        password_like(unwrap(core).1)
    } else if caps.name("prose_few_quote").is_some() {
        // After a quoted name, a quoted value is a message about it (`'Password' with the error:
        // 'The Password field is required.'`); a bare one is the value.
        !quoted && password_like(core)
    } else if ["prose_pw", "prose_foreign", "prose_few"].iter().any(|name| caps.name(name).is_some()) {
        quoted || password_like(core)
    } else {
        generated_token(unwrap(core).1)
    };
    let shown = if secret {
        format!("{label}{}", mask(core))
    } else if caps.name("prose_few").is_some() || caps.name("prose_few_tok").is_some() {
        // The words before the colon were a sentence's (`Password reset link: URL`): the value
        // gets every form a line does (a URL's `code=`).
        format!("{label}{}", redact_with(&CONTEXT_FREE, core))
    } else {
        keep(label, core)
    };
    format!("{shown}{end}")
}

/// A value a few words after the word for a password in a sentence (the `prose_skip` form of
/// `rules`): hidden when it reads as generated (16 or more characters of a token's alphabet, or
/// 8 or more that read as a password and mix cases or hold a symbol, and no GUID), so a user name
/// or id (`for user admin01 expired`) stays; the punctuation that ends the sentence stays too.
pub(super) fn prose_skip(label: &str, value: &str, end: &str) -> String {
    let core = value.trim_end_matches(['.', ',', ';', ')']);
    let rest = &value[core.len()..];
    let has = |test: fn(&char) -> bool| core.chars().any(|c| test(&c));
    let mixed = has(char::is_ascii_uppercase) && has(char::is_ascii_lowercase);
    let symbol = has(|c| c.is_ascii_punctuation() && !"_-.".contains(*c));
    // A GUID names a user or a request (`ResetPassword for user 0f1e...`).
    let secret =
        !is_guid(core) && (generated_token(core) || core.len() >= 8 && password_like(core) && (mixed || symbol));
    if secret { format!("{label}{}{rest}{end}", mask(core)) } else { format!("{}{end}", keep(label, value)) }
}

#[cfg(test)]
mod tests {
    use crate::redact::tests::{each, each_and_lines, r};

    #[test]
    fn a_short_random_key_after_the_word_key_in_a_log_message() {
        // A logging client's API key of 20 letters and digits (Seq's), in a debug message of
        // Microsoft.Extensions.Logging's console format and quoted in another sentence.
        each_and_lines(&[
            (
                "dbug: Shop.Api.Telemetry.SeqSink[0]\n      Created Seq sink with key Tq7LbX2mRc9NwKd4HvZp for tenant fabrikam",
                "dbug: Shop.Api.Telemetry.SeqSink[0]\n      Created Seq sink with key [REDACTED] for tenant fabrikam",
            ),
            ("Ingestion rejected key 'pW3nRt8KqZx5LmYb2Vc6Hd' (401)", "Ingestion rejected key '[REDACTED]' (401)"),
            // Names, ids and digests after the word stay: CamelCase with a number, upper-case hex.
            ("Cache miss for key OrdersV2ByCustomer42 in region eu", ""),
            ("Loaded key ProductCatalogItems2024Q3 from the store", ""),
            ("gpg: using key 3AA5C34371567BD2A1B2C3 for signing", ""),
            ("info: Microsoft.Hosting.Lifetime[0]\n      Application started. Press Ctrl+C to shut down.", ""),
        ]);
    }

    #[test]
    fn a_user_and_password_after_a_slash_named_as_credentials() {
        each(&[
            (
                "Dashboard at /jobs guarded by basic auth ops / Kp4!xr-Tq2 (dev only)",
                "Dashboard at /jobs guarded by basic auth ops / [REDACTED] (dev only)",
            ),
            ("Seeded credentials: svc-deploy / Zz.81mq,Lw", "Seeded credentials: svc-deploy / [REDACTED]"),
            ("  login admin / Wq9vbTx2 accepted", "  login admin / [REDACTED] accepted"),
            // What does not read as a password stays.
            ("Routes: basic auth admin / dashboard", ""),
            ("login page / home page", ""),
        ]);
    }

    #[test]
    fn other_languages_log_and_dump_formats() {
        each(&[
            ("{'user': 'bob', 'password': 'Py-S3cret'}", "{'user': 'bob', 'password': '[REDACTED]'}"),
            (
                "array('user' => 'bob', 'password' => 'Php-S3cret')",
                "array('user' => 'bob', 'password' => '[REDACTED]')",
            ),
            ("    [password] => Php-S3cret\n    [user] => bob", "    [password] => [REDACTED]\n    [user] => bob"),
            (
                "  [\"db_password\"]=>\n  string(10) \"Php-S3cret\"",
                "  [\"db_password\"]=>\n  string(10) \"[REDACTED]\"",
            ),
            (
                "#0 /var/www/src/Db.php(14): PDO->__construct('mysql:host=db;dbname=app', 'app', 'Pdo-S3cret')",
                "#0 /var/www/src/Db.php(14): PDO->__construct('mysql:host=db;dbname=app', 'app', '[REDACTED]')",
            ),
            (
                "#1 mysqli_connect('db', 'root', 'My-S3cret', 'app')",
                "#1 mysqli_connect('db', 'root', '[REDACTED]', 'app')",
            ),
            ("{:user=>\"bob\", :password=>\"Rb-S3cret\"}", "{:user=>\"bob\", :password=>\"[REDACTED]\"}"),
            ("{\"password\"=>\"Rb-S3cret\"}", "{\"password\"=>\"[REDACTED]\"}"),
            (
                "Config { user: \"bob\", password: Some(\"Rs-S3cret\"), token: None }",
                "Config { user: \"bob\", password: Some(\"[REDACTED]\"), token: None }",
            ),
            ("login failed: the password is Fr33-text!", "login failed: the password is [REDACTED]"),
            ("retrying with password 'two words'", "retrying with password '[REDACTED]'"),
            ("password must be at least 12 characters", ""),
            ("Password reset link sent", ""),
            ("using token Zk81mQp0Lr7Xv2Nc4Tb6 for upload", "using token [REDACTED] for upload"),
            ("Unexpected token identifier in JSON", ""),
        ]);
    }

    #[test]
    fn a_secret_quoted_by_its_name_a_few_words_before_a_colon() {
        each(&[
            (
                "      Parameter 'rabbit-password' loaded from appsettings: Tq7#mz!Kd0",
                "      Parameter 'rabbit-password' loaded from appsettings: [REDACTED]",
            ),
            (
                "Variable \"deploy-token\" read from vault: Vk3_q8PzLm2Rx5Nc7Wb9",
                "Variable \"deploy-token\" read from vault: [REDACTED]",
            ),
            ("Parameter 'admin-password' resolved from configuration: (empty)", ""),
            ("Parameter 'search-api-key' resolved from configuration: see docs", ""),
            ("validation failed: 'Password' with the error: 'The Password must be 12 characters.'.", ""),
        ]);
    }

    #[test]
    fn a_secret_named_and_read_from_somewhere_hides_its_value_after_the_colon_whatever_it_looks_like() {
        each_and_lines(&[
            ("Secret \"db-password\" read from vault: hunter2", "Secret \"db-password\" read from vault: [REDACTED]"),
            (
                "info: Secret \"ApiKey\" loaded from Key Vault: abc (cached 5 min)",
                "info: Secret \"ApiKey\" loaded from Key Vault: [REDACTED] (cached 5 min)",
            ),
            ("Token 'github' resolved from env: ghx.", "Token 'github' resolved from env: [REDACTED]."),
            ("Password read from file: p4ss", "Password read from file: [REDACTED]"),
            ("api key \"stripe\" fetched from store: 'sk1'", "api key \"stripe\" fetched from store: '[REDACTED]'"),
            // What stands in for a value, and a sentence with no name after its noun, stay.
            ("Secret \"db-password\" read from vault: (empty)", ""),
            ("Secret \"db-password\" read from vault: ${DB_PASSWORD}", ""),
            ("Token cache read from disk: 12 entries", ""),
            ("Fetching secret from Key Vault: orders-kv", ""),
            ("Secret 'Db' from vault orders-kv: enabled", ""),
            ("Secret 'db-password' retrieved with id: 0f1e2d3c4b5a69788796a5b4c3d2e1f0", ""),
            ("Secret \"Db\" read from: https://orders-kv.vault.azure.net/secrets/Db/7f3a", ""),
            ("Secret \"db-password\" rotated on: 2026-11-01", ""),
        ]);
    }

    #[test]
    fn a_secret_read_from_somewhere_for_a_quoted_name_hides_its_value() {
        each_and_lines(&[
            ("Password for \"app\" read from file: Qx7-pp2", "Password for \"app\" read from file: [REDACTED]"),
            (
                "Token for user 'ci' loaded from env: gh_live_4f2c9e8d, expires 2027-01-01",
                "Token for user 'ci' loaded from env: [REDACTED], expires 2027-01-01",
            ),
            (
                "warn: api key of 'stripe' fetched from store: abc",
                "warn: api key of 'stripe' fetched from store: [REDACTED]",
            ),
            // Other words before the name make it a sentence's; without a retrieval there is no value.
            ("Token cache for 'ci' loaded from disk: 3 entries", ""),
            ("Password for \"app\" expires on: 2027-01-01", ""),
            ("Password for \"app\" read from: https://kv.vault.azure.net/secrets/app/1", ""),
        ]);
    }

    #[test]
    fn password_words_of_other_languages() {
        each(&[
            (
                "Anmeldung fehlgeschlagen, Passwort=Gh7-xYz-99 erneut",
                "Anmeldung fehlgeschlagen, Passwort=[REDACTED] erneut",
            ),
            (
                "utilisateur=bob mot de passe=Mdp-7xq-2 serveur=smtp",
                "utilisateur=bob mot de passe=[REDACTED] serveur=smtp",
            ),
            (
                "usuario: ventas, contraseña: Ctr-9kq-1, servidor: sql",
                "usuario: ventas, contraseña: [REDACTED], servidor: sql",
            ),
            ("пользователь=app пароль=Prl-5zz-3 хост=pg", "пользователь=app пароль=[REDACTED] хост=pg"),
            ("用户名=report 密码=Mm-42-abc 端口=3306", "用户名=report 密码=[REDACTED] 端口=3306"),
            ("APIキー: 9a59649e79716610a4ef (タイムアウト: 30秒)", "APIキー: [REDACTED] (タイムアウト: 30秒)"),
        ]);
    }

    #[test]
    fn the_word_for_a_password_in_a_sentence_of_another_language_hides_the_value_after_it() {
        for (input, expected) in [
            (
                "Nytt lösenord för kontot ops: Qr7-kWz2pL (ändra det)",
                "Nytt lösenord för kontot ops: [REDACTED] (ändra det)",
            ),
            (
                "Dit midlertidige adgangskode er Vb3.nLq8Rt og skal skiftes",
                "Dit midlertidige adgangskode er [REDACTED] og skal skiftes",
            ),
            ("Mật khẩu tạm thời là Hx9_pQ2mZw nhé", "Mật khẩu tạm thời là [REDACTED] nhé"),
            ("Kata sandi baru: Tz4!wQp7Lm", "Kata sandi baru: [REDACTED]"),
            ("初始密碼：Kp3-zX8wQm （請更改）", "初始密碼：[REDACTED] （請更改）"),
            ("Parola contului build: Mn5~xR2tYq", "Parola contului build: [REDACTED]"),
            ("API-avain: 7f3a91c0de5b4a2f8e6d1c0b9a8f7e6d", "API-avain: [REDACTED]"),
        ] {
            assert_eq!(r(input), expected, "{input}");
        }
        // The word without a value after it is prose about a password.
        for kept in ["Das Kennwort muss mindestens 12 Zeichen lang sein.", "Heslo bylo změněno."] {
            assert_eq!(r(kept), kept);
        }
    }

    #[test]
    fn the_word_for_a_password_before_its_value_in_more_sentence_shapes() {
        for (input, expected) in [
            ("No se pudo entrar con la contraseña Xk9_pQ2-mm", "No se pudo entrar con la contraseña [REDACTED]"),
            (
                "Le mot de passe est maintenant « Rq!7zzP2-w » ; merci.",
                "Le mot de passe est maintenant « [REDACTED] » ; merci.",
            ),
            ("Hasło konta 'backup' ustawiono na: Pl0!kk-99x", "Hasło konta 'backup' ustawiono na: [REDACTED]"),
            (
                "API-sleutel voor de winkel: zz_9a8b7c6d5e4f3a2b1c — bewaar",
                "API-sleutel voor de winkel: [REDACTED] — bewaar",
            ),
            ("Passwort vergessen", "Passwort vergessen"),
        ] {
            assert_eq!(r(input), expected, "{input}");
        }
    }

    #[test]
    fn the_word_for_a_password_in_more_languages_and_a_few_words_before_the_value() {
        each_and_lines(&[
            ("Geslo za bazo Qw7!tr-Zp9x je napačno", "Geslo za bazo [REDACTED] je napačno"),
            ("Lozinka Hj5#pp-2Wq nije ispravna", "Lozinka [REDACTED] nije ispravna"),
            ("Parool Zx8-kk!2Lm aegus", "Parool [REDACTED] aegus"),
            ("Nenosiri Tt4$zz-9Qa si sahihi", "Nenosiri [REDACTED] si sahihi"),
            ("رمز عبور Pq9!mm-4Zx نامعتبر است، کاربر: app", "رمز عبور [REDACTED] نامعتبر است، کاربر: app"),
            ("API atslēga 3f9a0c1d2e4b5a6978c0d1e2f3a4b5c6 ir nederīga", "API atslēga [REDACTED] ir nederīga"),
            ("password for the relay Xr8!vv-2Kp expired", "password for the relay [REDACTED] expired"),
            // A password of letters and symbols is no word to skip for the number after it.
            (
                "Login for bot with password CO+aIn.btTK+Fy*Sz^uG succeeded from 10.1.2.3",
                "Login for bot with password [REDACTED] succeeded from 10.1.2.3",
            ),
            (
                "Loaded API_TOKEN from vault: 9fQx2LmP7rT4vB8nC1dE5gH3 (cached)",
                "Loaded API_TOKEN from vault: [REDACTED] (cached)",
            ),
            ("svc --mode Password --password Lm4!qq-8 --port 1", "svc --mode Password --password [REDACTED] --port 1"),
            // A user id or name after the words, prose without a value, and a lookup's address stay.
            ("Purpose ResetPassword for user 0d6f1c2e-4a5b-4c3d-9e8f-7a6b5c4d3e2f.", ""),
            ("password for user admin01 expired", ""),
            ("Geslo mora imeti vsaj 12 znakov", ""),
            ("Token cache hit for: alice@contoso.com", ""),
        ]);
    }

    #[test]
    fn the_word_for_a_password_in_batch_11_languages() {
        each_and_lines(&[
            ("लॉगिन अयशस्वी (app, संकेतशब्द: Kw9-pp!3Zq) पुन्हा", "लॉगिन अयशस्वी (app, संकेतशब्द: [REDACTED]) पुन्हा"),
            ("Ngena (app, iphasiwedi: Tq4?mmZ1) futhi", "Ngena (app, iphasiwedi: [REDACTED]) futhi"),
            ("passwuert=Lm3-Zr8!q", "passwuert=[REDACTED]"),
        ]);
    }
}
