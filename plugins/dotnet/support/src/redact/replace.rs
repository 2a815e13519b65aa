//! The replacement for each match of the combined pattern: which form matched, and how its
//! secret part is hidden while its label, quotes and neighbours stay.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::{Captures, Regex};

use super::{
    REDACTED,
    cli::{echoed_secrets, is_secret_option, option_value, redact_segment},
    connection::{own_labels, redact_connection_string},
    hexdump::hexdump_block,
    keys::{
        DESCRIBING_WORDS, EXACT_KEY_WORDS, KeyClass, classify_key, is_setting_name, key_like, looks_generated,
        names_key_map, normalize, token_like,
    },
    labelled::{
        continued_value, credential_arguments, keep, key_map_members, labelled, labelled_value, mask_auth_params,
        mask_cookies, mask_ef_parameters, mask_xml_attributes, redact_labelled, saved_secret, secret_parameters,
        test_arguments, text, weak,
    },
    patterns::{CONTEXT_FREE, FULL, SHAPES, redact_with},
    prose::{generated_token, password_like, prose, prose_skip},
    stand_in::{is_stand_in, mask, unwrap},
    tables::{COLUMN_GAP, columns_and_values, listing_row, ruled_columns, ruled_row, table_columns, table_row},
    tokens::{mask_token_line, mixed_code, recovery_code_line, vendor_secret},
};

/// One item of a JSON array written one item a line: its indentation and the quoted item.
static ARRAY_ITEM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?m:^)(?P<indent>[ \t]*)(?P<item>"(?:[^"\\\r\n]|\\.)*")"#).expect("array item pattern is valid")
});

/// What follows a layout's `|` when it starts the next field (`url:`, `INFO|`), not the rest of a value.
pub(super) static LAYOUT_FIELD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[A-Za-z][A-Za-z0-9_.-]*[:|]").expect("layout field pattern is valid"));

/// The name a command that prints a value bare gives it: `terraform output NAME`'s output, or
/// an `aws ssm get-parameter --name PATH` parameter read without `--with-decryption` (its last
/// path part).
static OUTPUT_NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"terraform[ \t]+output[ \t]+(?:-[A-Za-z-]+(?:=\S*)?[ \t]+)*(?P<output>[A-Za-z_][A-Za-z0-9_-]*)",
        r"|aws[ \t]+ssm[ \t]+get-parameter[ \t](?:[^\r\n]*?[ \t])?--name[ \t=]+(?:[^\s/]*/)*(?P<parameter>[^\s/]+)",
    ))
    .expect("output name pattern is valid")
});

/// The value a command printed bare on the line after it (see the `tf_output` form). A Terraform
/// output or an SSM parameter read in the clear is as secret as its name says, and under a name
/// that says nothing, when it looks generated (`terraform output sql_server_fqdn` shows the host
/// name); a decrypted parameter and what the other commands print are secret. A secret that is
/// a connection string or a URL with credentials (a decoded Kubernetes secret) keeps the parts
/// its own names say are not secret, as under a secret label.
fn command_output(command: &str, value: &str) -> String {
    let named = OUTPUT_NAME
        .captures(command)
        .filter(|caps| caps.name("output").is_some() || !command.contains("--with-decryption"))
        .and_then(|caps| caps.name("output").or(caps.name("parameter")))
        .map(|name| classify_key(name.as_str()));
    match named {
        Some(KeyClass::Secret) | None => {
            let (open, inner, close) = unwrap(value);
            own_labels(inner)
                .or_else(|| redact_connection_string(inner).filter(|shown| shown != inner))
                .map_or_else(|| mask(value), |shown| format!("{open}{shown}{close}"))
        }
        Some(class) => {
            let class = if class == KeyClass::Plain { KeyClass::Weak } else { class };
            // Parts of it may carry labels of their own (`terraform output -json` of an object).
            redact_labelled(class, value).unwrap_or_else(|| redact_with(&CONTEXT_FREE, value).into_owned())
        }
    }
}

/// The replacement for one match of [`FULL`], [`CONTEXT_FREE`] or [`SHAPES`].
pub(super) fn replace(caps: &Captures<'_>) -> String {
    if let Some(shown) = replace_codes_and_listings(caps) {
        return shown;
    }
    if let Some(shown) = replace_contexts(caps) {
        return shown;
    }
    let whole = &caps[0];
    if let Some(kind) = caps.name("pem_esc_kind") {
        // Escaped line breaks stay escaped, so the string that holds the key stays valid.
        let newline = &caps["pem_esc"];
        let end = caps.name("pem_esc_end").map_or(String::new(), |m| format!("{newline}{}", m.as_str()));
        return format!("-----BEGIN {}-----{newline}{REDACTED}{end}{}", kind.as_str(), text(caps, "pem_stop"));
    }
    if let Some(kind) = caps.name("pem_kind") {
        let newline = if whole.contains("\r\n") {
            "\r\n"
        } else if whole.contains('\n') || caps.name("pem_cut_end").is_none() {
            "\n"
        } else {
            " "
        };
        let end = caps
            .name("pem_end")
            .or(caps.name("pem_cut_end"))
            .map_or(String::new(), |m| format!("{newline}{}", m.as_str()));
        return format!("-----BEGIN {}-----{newline}{REDACTED}{end}", kind.as_str());
    }
    if let Some(label) = caps.name("ppk") {
        let newline = if whole.contains("\r\n") { "\r\n" } else { "\n" };
        return format!("{}{newline}{REDACTED}", label.as_str());
    }
    if let Some(label) = caps.name("cs_path") {
        return labelled(label.as_str(), KeyClass::Connection, &caps["cs_path_val"]);
    }
    if let Some(label) = caps.name("read_secret") {
        // A vault's address or a secret's identifier (`https://kv.vault.azure.net/secrets/Db/1`)
        // names the secret read, it does not hold it; so does a value the word before the colon
        // says describes it (`... retrieved with id: X`, `version: X`): they get the forms any
        // text gets.
        let value = &caps["read_secret_val"];
        let mut words = label.as_str().trim_end_matches([' ', '\t', ':', '：']).rsplit([' ', '\t']);
        let (last, before) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
        // `from file:`, `from environment:` name where it was read from.
        let describing = !before.eq_ignore_ascii_case("from")
            && (last.eq_ignore_ascii_case("id") || DESCRIBING_WORDS.iter().any(|word| last.eq_ignore_ascii_case(word)));
        let shown = if value.contains("://") || describing {
            redact_with(&CONTEXT_FREE, value).into_owned()
        } else {
            mask(value)
        };
        return format!("{}{shown}", label.as_str());
    }
    if let Some(call) = caps.name("cred_call") {
        let args = credential_arguments(call.as_str(), &caps["cred_args"]);
        return format!("{}{args}{}", call.as_str(), &caps["cred_end"]);
    }
    if let Some(echo) = caps.name("stdin_echo") {
        let pipe = redact_with(&CONTEXT_FREE, &caps["stdin_pipe"]);
        return format!("{}{}{pipe}", echo.as_str(), mask(&caps["stdin_val"]));
    }
    if let Some(value) = caps.name("saved_val") {
        return format!("{}{}{}", &caps["saved_pre"], saved_secret(value.as_str()), &caps["saved_post"]);
    }
    // Forms whose label stays and whose value is masked whole: a match has only its own form's
    // groups, and these forms hold no other group, so where they are checked does not matter.
    for (label, value) in [
        ("netrc", "netrc_val"),
        ("pgpass", "pgpass_val"),
        ("php_call", "php_val"),
        ("proto_auth", "proto_auth_val"),
        ("oracle", "oracle_val"),
        ("named_quote", "named_quote_val"),
        ("add_mask", "add_mask_val"),
        ("ctor", "ctor_val"),
        ("expect_send", "send_val"),
        ("esc_sig", "esc_sig_val"),
        ("login_call", "login_call_val"),
        ("sm_row", "sm_val"),
        ("ylist", "ylist_val"),
        ("azp_eval", "azp_val"),
        ("sql_pw", "sql_pw_val"),
        ("user_token", "user_token_val"),
        ("dpapi", "dpapi_val"),
    ] {
        if let Some(label) = caps.name(label) {
            return format!("{}{}", label.as_str(), mask(&caps[value]));
        }
    }
    for (label, name, value) in [
        ("tuple", "tuple_name", "tuple_val"),
        ("csv", "csv_name", "csv_val"),
        ("declare", "declare_name", "declare_val"),
        ("dav", "dav_name", "dav_val"),
        ("vso_var", "vso_name", "vso_val"),
        ("hdr_dir", "hdr_dir_name", "hdr_dir_val"),
        ("burn", "burn_name", "burn_val"),
        ("opt_kv", "opt_kv_name", "opt_kv_val"),
    ] {
        if let Some(label) = caps.name(label) {
            return labelled(label.as_str(), classify_key(&caps[name]), &caps[value]);
        }
    }
    if let Some(value) = caps.name("glued_val") {
        let value = value.as_str();
        let end = &whole[value.len()..];
        return if value.len() >= 12 && (password_like(value) || generated_token(value)) {
            format!("{REDACTED}{end}")
        } else {
            format!("{}{end}", redact_with(&SHAPES, value))
        };
    }
    for (head, rows) in [("ptab_head", "ptab_rows"), ("ctab_head", "ctab_rows"), ("xtab_head", "xtab_rows")] {
        if let Some(head) = caps.name(head) {
            let rows = &caps[rows];
            // A header is names; a pipe table's first line may also be a row (no header), so it
            // gets the scan any line gets.
            let shown_head = redact_with(&CONTEXT_FREE, head.as_str());
            return match table_columns(head.as_str()) {
                Some(table) => {
                    let shown: String = rows.split_inclusive('\n').map(|row| table_row(row, &table)).collect();
                    format!("{shown_head}{shown}")
                }
                None => format!(
                    "{shown_head}{}",
                    rows.split_inclusive('\n').map(|row| redact_with(&CONTEXT_FREE, row)).collect::<String>()
                ),
            };
        }
    }
    if let Some(head) = caps.name("rtab_head") {
        let (rule, rows) = (&caps["rtab_rule"], &caps["rtab_rows"]);
        let shown_head = redact_with(&CONTEXT_FREE, head.as_str());
        let shown: String = match ruled_columns(head.as_str().trim_end_matches(['\r', '\n']), rule) {
            Some(table) => rows.split_inclusive('\n').map(|row| ruled_row(row, &table)).collect(),
            None => rows.split_inclusive('\n').map(|row| redact_with(&CONTEXT_FREE, row)).collect(),
        };
        return format!("{shown_head}{rule}{shown}");
    }
    if let Some(top) = caps.name("btab_top") {
        let rows: String = caps["btab_rows"]
            .split_inclusive('\n')
            .map(|row| listing_row(row).unwrap_or_else(|| redact_with(&CONTEXT_FREE, row).into_owned()))
            .collect();
        return format!("{}{rows}", top.as_str());
    }
    if let Some(label) = caps.name("hcl") {
        // The attributes between the name and `default` are scanned too.
        let label = redact_with(&CONTEXT_FREE, label.as_str());
        return labelled(&label, classify_key(&caps["hcl_name"]), &caps["hcl_val"]);
    }
    if let Some(label) = caps.name("minisign") {
        return format!("{}{REDACTED}", label.as_str());
    }
    if let Some(label) = caps.name("keylog") {
        return format!("{}{REDACTED}", label.as_str());
    }
    if let Some(label) = caps.name("block") {
        let value = &caps["block_val"];
        if !matches!(classify_key(&caps["block_name"]), KeyClass::Secret | KeyClass::Connection) {
            return keep(label.as_str(), value);
        }
        // Each line keeps its indentation and its line break.
        let lines: String = value.split('\n').skip(1).map(|line| format!("\n{}", mask_token_line(line))).collect();
        return format!("{}{lines}", label.as_str());
    }
    if let Some(label) = caps.name("container") {
        let name = caps.name("container_name").or(caps.name("container_el")).map_or("", |m| m.as_str());
        return labelled(label.as_str(), classify_key(name), &caps["container_val"]);
    }
    if let Some(open) = caps.name("ef") {
        // The SQL says which parameters are secret; its own text gets the forms any text gets.
        let sql = &caps["ef_sql"];
        let list = mask_ef_parameters(&caps["ef_list"], &secret_parameters(sql));
        return format!("{}{list}{}{}", open.as_str(), &caps["ef_end"], redact_with(&CONTEXT_FREE, sql));
    }
    if let Some(label) = caps.name("directive") {
        let value = &caps["directive_val"];
        let name = label.as_str().trim();
        let class = classify_key(name);
        let exact = EXACT_KEY_WORDS.contains(&normalize(name).as_str());
        let quoted = value.starts_with(['"', '\'']);
        let secret = class == KeyClass::Secret && (exact || quoted || password_like(value) || generated_token(value));
        let shown = if secret { format!("{}{}", label.as_str(), mask(value)) } else { keep(label.as_str(), value) };
        return format!("{shown}{}", &caps["directive_end"]);
    }
    if let Some(label) = caps.name("vardump") {
        return format!("{}{}\"", label.as_str(), mask(&caps["vardump_val"]));
    }
    if let Some(command) = caps.name("tf_output") {
        let glued = text(caps, "tf_glued");
        let end = &whole[command.len() + caps["tf_val"].len() + glued.len()..];
        let value = command_output(command.as_str(), &caps["tf_val"]);
        return format!("{}{value}{}{end}", command.as_str(), redact_with(&SHAPES, glued));
    }
    if let Some(cols) = caps.name("cols") {
        return columns_and_values(cols.as_str(), &caps["cols_vals"]);
    }
    if let Some(command) = caps.name("echo") {
        // The command line without its line end, which alone no longer opens this form.
        let line = command.as_str().trim_end_matches(['\r', '\n']);
        let args = line.find("echo").map_or("", |at| &line[at + "echo".len()..]);
        let output = &caps["echo_out"];
        let shown = echoed_secrets(args, output).unwrap_or_else(|| redact_with(&CONTEXT_FREE, output).into_owned());
        return format!("{}{}{shown}", redact_with(&CONTEXT_FREE, line), &command.as_str()[line.len()..]);
    }
    if let Some(label) = caps.name("argpair") {
        // The first argument may be a token itself (a mock's `SendAsync("sk-...", "model")`).
        let label = redact_with(&SHAPES, label.as_str());
        return labelled(&label, classify_key(&caps["argpair_name"]), &caps["argpair_val"]);
    }
    if let Some(label) = caps.name("msi") {
        let class = classify_key(&caps["msi_name"]);
        let new = caps.name("msi_new").map_or(String::new(), |new| labelled(&caps["msi_mid"], class, new.as_str()));
        return format!("{}{new}", labelled(label.as_str(), class, &caps["msi_val"]));
    }
    if let Some(label) = caps.name("reassign") {
        let class = classify_key(&caps["reassign_name"]);
        let shown =
            |value: &str| redact_labelled(class, value).unwrap_or_else(|| redact_with(&SHAPES, value).into_owned());
        let (value, previous) = (shown(&caps["reassign_val"]), shown(&caps["reassign_prev"]));
        return format!("{}{value}{}{previous}", label.as_str(), &caps["reassign_mid"]);
    }
    if let Some(name) = caps.name("bare_name") {
        let value = &caps["bare_val"];
        let end = &whole[name.len() + value.len()..];
        let secret =
            classify_key(name.as_str().trim()) == KeyClass::Secret && password_like(value) && !is_setting_name(value);
        let shown = if secret { REDACTED.to_owned() } else { redact_with(&SHAPES, value).into_owned() };
        return format!("{}{shown}{end}", name.as_str());
    }
    // A password after an address, a user named as credentials or a user option only when it
    // reads as one (`a@b.c / Admin` and `-u 1000:1000` stay).
    for (label, value) in [("upair", "upair_val"), ("uflag", "uflag_val")] {
        if let Some(label) = caps.name(label) {
            let value = &caps[value];
            let secret = password_like(value) || generated_token(value);
            return if secret { format!("{}{}", label.as_str(), mask(value)) } else { keep(label.as_str(), value) };
        }
    }
    if let Some(pair) = caps.name("aws_pair") {
        let secret = &caps["aws_secret"];
        let shown = if token_like(secret, 40) { REDACTED } else { secret };
        return format!("{}{shown}{}", redact_with(&SHAPES, pair.as_str()), &caps["aws_end"]);
    }
    if let Some(name) = caps.name("enc_key") {
        let value = &caps["enc_val"];
        // The name without the encoded `?` or `&` before it and the `=` after it.
        let name_only = &name.as_str()[..name.len() - "%3D".len()];
        let name_only = name_only.get(3..).filter(|_| name_only.starts_with('%')).unwrap_or(name_only);
        return labelled(name.as_str(), classify_key(name_only), value);
    }
    if let Some(segment) = caps.name("segment") {
        let assign = text(caps, "assign");
        return format!("{assign}{}", redact_segment(&segment.as_str()[assign.len()..]));
    }
    if let Some(header) = caps.name("cookie") {
        let set = header.as_str().to_ascii_lowercase().starts_with("set");
        return format!("{}{}", header.as_str(), mask_cookies(&caps["cookie_val"], set));
    }
    for (flag, value) in [("flag", "flag_val"), ("wflag", "wflag_val")] {
        if let Some(flag) = caps.name(flag) {
            return format!("{}{}", flag.as_str(), option_value(flag.as_str(), &caps[value]));
        }
    }
    if let Some(scheme) = caps.name("hdrp") {
        return format!("{}{}", scheme.as_str(), mask_auth_params(&caps["hdrp_params"]));
    }
    if let Some(hdr) = caps.name("hdr") {
        let scheme = text(caps, "hdr_scheme");
        // A SAS token's fields are public but its signature (`sr=...&sig=...&se=...&skn=...`).
        if scheme.trim().eq_ignore_ascii_case("SharedAccessSignature") {
            return format!("{}{scheme}{}", hdr.as_str(), redact_with(&CONTEXT_FREE, &caps["hdr_val"]));
        }
        // A value a shell line continuation broke (`...\` and the rest on the next line): each
        // piece masked, the continuation kept.
        let shown: String = caps["hdr_val"]
            .split_inclusive('\n')
            .map(|piece| {
                let body = piece.trim_end_matches(['\r', '\n']).trim_end_matches('\\');
                if piece.len() == body.len() {
                    mask(piece)
                } else {
                    format!("{}{}", mask_token_line(body), &piece[body.len()..])
                }
            })
            .collect();
        return format!("{}{scheme}{shown}", hdr.as_str());
    }
    if let Some(bearer) = caps.name("bearer") {
        let token = &caps["bearer_val"];
        if token.bytes().any(|b| b.is_ascii_digit()) || token.len() >= 20 {
            return format!("{}{REDACTED}", bearer.as_str());
        }
        return whole.to_owned();
    }
    if let Some(url) = caps.name("url") {
        // A password already masked (`https://build:****@host`, as pip prints an index URL, or
        // `api:xxxxx@` by a program's own redaction) stays.
        if is_stand_in(&whole[url.len()..whole.len() - 1]) {
            return whole.to_owned();
        }
        return format!("{}{REDACTED}@", url.as_str());
    }
    if let Some(scheme) = caps.name("url_user") {
        let user = &caps["url_token"];
        return if looks_generated(user) { format!("{}{REDACTED}@", scheme.as_str()) } else { whole.to_owned() };
    }
    if let Some(name) = caps.name("query") {
        let value = &caps["query_val"];
        return if looks_generated(value) {
            format!("{}{REDACTED}", name.as_str())
        } else {
            keep(name.as_str(), value)
        };
    }
    if caps.name("xml_tag").is_some() {
        return mask_xml_attributes(whole);
    }
    if let Some(label) = caps.name("xml_kv") {
        return labelled(label.as_str(), classify_key(unwrap(&caps["kv_name"]).1), &caps["kv_val"]);
    }
    if let Some(element) = caps.name("xml_el") {
        let attributes = redact_with(&SHAPES, &caps["xml_attrs"]);
        // A value in a CDATA section (a runsettings environment variable) keeps the section.
        let (open, value, close) = match caps.name("xml_cdata") {
            Some(open) => (open.as_str(), &caps["xml_cdata_val"], "]]>"),
            None => ("", &caps["xml_val"], ""),
        };
        let shown = redact_labelled(classify_key(element.as_str()), value)
            .unwrap_or_else(|| redact_with(&SHAPES, value).into_owned());
        return format!("<{}{attributes}>{open}{shown}{close}</", element.as_str());
    }
    if let Some(login) = caps.name("login") {
        return format!("{}{REDACTED}", login.as_str());
    }
    if caps.name("jwt_wrap").is_some() || caps.name("jwt_split").is_some() {
        // Each line keeps its indentation and its line break.
        return whole.split_inclusive('\n').map(mask_token_line).collect();
    }
    if caps.name("totp_key").is_some() {
        // Words of four letters are a sentence, not a key.
        return if whole.bytes().any(|b| b.is_ascii_digit()) { REDACTED.to_owned() } else { whole.to_owned() };
    }
    if ["jwt", "aad", "fcm", "atlas", "mailgun", "mailchimp", "asana"].iter().any(|name| caps.name(name).is_some()) {
        return REDACTED.to_owned();
    }
    if let Some(marker) = caps.name("path_tok") {
        let value = &caps["path_tok_val"];
        return if looks_generated(value) {
            format!("{}{REDACTED}", marker.as_str())
        } else {
            keep(marker.as_str(), value)
        };
    }
    if caps.name("mollie").is_some() && !caps["mollie_val"].bytes().any(|b| b.is_ascii_digit()) {
        return whole.to_owned();
    }
    // npm's tokens are `npm_` and 36 letters and digits: `npm_config_always_auth` is a setting's name.
    if caps.name("tok_prefix").is_some_and(|prefix| prefix.as_str() == "npm_") && whole[4..].contains('_') {
        return whole.to_owned();
    }
    // crates.io's `cio` is glued to its body: a word that starts so is not one.
    if caps.name("glued_prefix").is_some() && !token_like(whole, 35) {
        return whole.to_owned();
    }
    if let Some(prefix) = caps.name("vendor") {
        return if vendor_secret(prefix.as_str(), &caps["vendor_body"]) {
            format!("{}{}{REDACTED}", text(caps, "vendor_sgr"), prefix.as_str())
        } else {
            whole.to_owned()
        };
    }
    let prefix = [
        "webhook",
        "tok_prefix",
        "glued_prefix",
        "glued_pat",
        "braintree",
        "guid_prefix",
        "octopus",
        "hex_prefix",
        "age",
        "sendgrid",
        "telegram",
        "nkey",
        "mollie",
    ]
    .iter()
    .find_map(|name| caps.name(name));
    if let Some(prefix) = prefix {
        return format!("{}{REDACTED}", prefix.as_str());
    }
    // A pair's value whose name is not secret gets every form: it is one line without the
    // pair's label, so no pair can match inside it and the rescan cannot recurse deeper.
    if let Some(label) = caps.name("arr") {
        let class = classify_key(&caps["arr_name"]);
        let items = ARRAY_ITEM.replace_all(&caps["arr_items"], |item: &Captures<'_>| {
            let value = &item["item"];
            let shown = redact_labelled(class, value).unwrap_or_else(|| redact_with(&SHAPES, value).into_owned());
            format!("{}{shown}", &item["indent"])
        });
        return format!("{}{items}", label.as_str());
    }
    if let Some(label) = caps.name("kmap") {
        let members = &caps["kmap_members"];
        let shown = if names_key_map(&caps["kmap_name"]) {
            key_map_members(members)
        } else {
            redact_with(&CONTEXT_FREE, members).into_owned()
        };
        return format!("{}{shown}", label.as_str());
    }
    if let Some(name) = caps.name("theory") {
        return format!("{}{})", name.as_str(), test_arguments(&caps["theory_args"]));
    }
    if let Some(pairs) = caps.name("cs_pw") {
        // The pairs before the password are judged as any text is.
        return labelled(&redact_with(&CONTEXT_FREE, pairs.as_str()), KeyClass::Secret, &caps["cs_pw_val"]);
    }
    if let Some(label) = caps.name("cs_label") {
        return labelled(label.as_str(), KeyClass::Connection, &caps["cs_val"]);
    }
    if let Some(pair) = caps.name("pair") {
        // The fields between the name and the value are scanned too.
        let label = redact_with(&CONTEXT_FREE, pair.as_str());
        let value = &caps["pair_val"];
        return match redact_labelled(classify_key(&caps["pair_name"]), value) {
            Some(shown) => format!("{label}{shown}\""),
            None => format!("{label}{}\"", redact_with(&FULL, value)),
        };
    }
    if let Some(pair) = caps.name("yaml_pair") {
        // `name:` or PowerShell DSC's `Name:` (ASCII lower-casing keeps the offsets).
        let at = pair.as_str().to_ascii_lowercase().find("name:").map_or(pair.len(), |at| at + "name:".len());
        let name = pair.as_str()[at..].lines().next().unwrap_or("");
        let value = &caps["yaml_val"];
        return match redact_labelled(classify_key(name.trim().trim_matches(['"', '\''])), value) {
            Some(shown) => format!("{}{shown}", pair.as_str()),
            None => format!("{}{}", pair.as_str(), redact_with(&FULL, value)),
        };
    }
    if let Some(label) = caps.name("sensitive") {
        return format!("{}{}", redact_with(&CONTEXT_FREE, label.as_str()), mask(&caps["sensitive_val"]));
    }
    if let Some(label) = caps.name("value_label") {
        let value = &caps["value_val"];
        let close = &whole[label.len() + value.len()..];
        return format!("{}{close}", labelled(label.as_str(), KeyClass::Neutral, value));
    }
    if let Some(label) = caps.name("signing_key") {
        return format!("{}{REDACTED}", label.as_str());
    }
    if ["k8s_size", "sample", "arn", "public_token"].iter().any(|name| caps.name(name).is_some()) {
        return whole.to_owned();
    }
    if let Some(row) = caps.name("row") {
        let value = &caps["row_val"];
        let name = row.as_str().trim();
        // An option or a command in a command's help (`--store-password-in-clear-text    Enables
        // ...`, `dotnet -h`'s `user-secrets      Manage development user secrets.`).
        if name.starts_with('-') || describes(value.trim_end()) {
            return format!("{}{}{}", row.as_str(), redact_with(&SHAPES, value), text(caps, "row_wrap"));
        }
        let shown = value.trim_end();
        // A value another tool masked, then more words (`aws configure list`:
        // `****************WB59 shared-credentials-file`).
        // A word such as `False` is a column of its own (`az ... appsettings list -o table`'s
        // SlotSetting), not a mask.
        let masked = |cell: &str| is_stand_in(cell) && !cell.bytes().all(|b| b.is_ascii_alphabetic());
        if shown.split([' ', '\t']).next().is_some_and(masked) && shown.contains(' ') {
            return format!("{}{}{}", row.as_str(), redact_with(&SHAPES, value), text(caps, "row_wrap"));
        }
        // More columns (`kubectl get secrets`: TYPE, DATA, AGE; `az storage account keys list`:
        // PERMISSIONS, VALUE): only a generated-looking cell can be the secret.
        if COLUMN_GAP.is_match(shown) {
            // A short hex run is a digest or an id (`fly secrets list`'s DIGEST, a commit).
            let short_hex = |cell: &str| cell.len() < 32 && cell.bytes().all(|b| b.is_ascii_hexdigit());
            let cell = |cell: &str| {
                if looks_generated(cell) && !short_hex(cell) || key_like(cell) {
                    mask(cell)
                } else {
                    redact_with(&SHAPES, cell).into_owned()
                }
            };
            let mut out = String::with_capacity(shown.len());
            let mut start = 0;
            for gap in COLUMN_GAP.find_iter(shown) {
                out.push_str(&cell(&shown[start..gap.start()]));
                out.push_str(gap.as_str());
                start = gap.end();
            }
            out.push_str(&cell(&shown[start..]));
            return format!("{}{out}{}{}", row.as_str(), &value[shown.len()..], text(caps, "row_wrap"));
        }
        // `kubectl describe pod` ends an environment variable's name with a colon
        // (`ConnectionStrings__Storage:  ...`): the name is what is before it.
        let class = classify_key(name.strip_suffix(':').unwrap_or(name));
        let shown_value = labelled(row.as_str(), class, shown);
        // A value wrapped by the console: its padded end on the next line is the same secret.
        let wrap = match caps.name("row_wrap") {
            Some(wrap) if shown_value.ends_with(REDACTED) => {
                let newline = if wrap.as_str().starts_with("\r\n") { "\r\n" } else { "\n" };
                format!("{newline}{REDACTED}")
            }
            Some(wrap) => wrap.as_str().to_owned(),
            None => String::new(),
        };
        return format!("{shown_value}{}{wrap}", &value[shown.len()..]);
    }
    if let Some(key) = caps.name("key") {
        let label = &whole[..caps["key_sep"].len() + key.len()];
        let value = &caps["key_val"];
        let words = text(caps, "key_words");
        // A name that ends in a web URL's scheme (an MSAL token cache's key
        // `...-accesstoken-<client>-<tenant>-https://management.core.windows.net//.default`): its
        // `:` starts the URL, it ends no label.
        let scheme = key.as_str().rsplit(['-', '_', '.']).next().is_some_and(|last| {
            ["http", "https"].iter().any(|scheme| last.eq_ignore_ascii_case(scheme)) && last.len() < key.len()
        });
        if scheme && &caps["key_sep"] == ":" && value.starts_with("//") {
            return keep(label, &whole[label.len()..]);
        }
        // A lower-case word that the words after it make a sentence (`secrets: move the feed's
        // credentials`, fish's `$API_KEY: set in universal scope`): prose, not a value.
        if !words.is_empty() && value.len() <= 14 && value.bytes().all(|b| b.is_ascii_lowercase()) {
            return whole.to_owned();
        }
        let shown = labelled_value(caps, key.as_str(), label, value);
        let more = caps.name("key_more").map_or(Cow::Borrowed(""), |more| continued_value(more.as_str(), &shown));
        format!("{shown}{more}{words}")
    } else if let Some(label) = caps.name("prose_skip") {
        prose_skip(label.as_str(), &caps["prose_skip_val"], text(caps, "prose_skip_end"))
    } else if let Some(label) = caps.name("prose") {
        // A themed logger's colour before the value (Serilog's `with key \x1b[38;5;0045m"..."`)
        // stays with the words before it.
        prose(caps, &whole[..label.len() + text(caps, "prose_ansi").len()])
    } else {
        weak(caps)
    }
}

/// Whether a table cell is a description in a help listing (`Manage development user secrets.`):
/// a sentence of three or more words of letters that starts with a capital, not a value.
fn describes(cell: &str) -> bool {
    let words: Vec<&str> = cell.split(' ').collect();
    words.len() >= 3
        && cell.starts_with(|c: char| c.is_ascii_uppercase())
        && words.iter().all(|word| {
            let word = word.trim_start_matches('(').trim_end_matches(['.', ',', ';', ':', ')']);
            !word.is_empty() && word.chars().all(|c| c.is_alphabetic() || c == '-' || c == '\'')
        })
}

/// The replacement for a match of the code and listing forms of `rules` (recovery codes,
/// BitLocker recovery passwords, `aws ssm`, `az storage account keys list -o tsv` and `klist -K`
/// rows, aligned labels, AWS's key listing, an id beside its secret, `altool`'s key id) and of a
/// prefixed token after an ANSI code or before a placeholder, or `None` when the match is of
/// another form.
fn replace_codes_and_listings(caps: &Captures<'_>) -> Option<String> {
    if let Some(label) = caps.name("rcodes") {
        if caps.name("rcodes_device").is_some() {
            return Some(caps[0].to_owned());
        }
        let codes: Vec<&str> = caps["rcodes_val"].split(',').collect();
        let listed = codes.iter().any(|code| mixed_code(code.trim()));
        let shown: Vec<String> = codes
            .iter()
            .map(|code| {
                let trimmed = code.trim();
                if listed { code.replace(trimmed, REDACTED) } else { (*code).to_owned() }
            })
            .collect();
        return Some(format!("{}{}", label.as_str(), shown.join(",")));
    }
    if let Some(block) = caps.name("rcode_block") {
        let mut seen = false;
        let shown = block
            .as_str()
            .split_inclusive('\n')
            .map(|line| {
                let body = line.strip_suffix('\n').unwrap_or(line);
                let end = &line[body.len()..];
                recovery_code_line(body, &mut seen).map_or_else(|| line.to_owned(), |shown| format!("{shown}{end}"))
            })
            .collect();
        return Some(shown);
    }
    if caps.name("bitlocker").is_some() {
        return Some(REDACTED.to_owned());
    }
    for (label, value) in [("ssm_row", "ssm_val"), ("azkey_row", "azkey_val"), ("krb", "krb_val")] {
        if let Some(label) = caps.name(label) {
            return Some(format!("{}{}", label.as_str(), mask(&caps[value])));
        }
    }
    if let Some(label) = caps.name("spaced") {
        let shown = labelled(label.as_str(), classify_key(&caps["spaced_name"]), &caps["spaced_val"]);
        return Some(format!("{shown}{}", &caps["spaced_end"]));
    }
    if let Some(command) = caps.name("altool") {
        return Some(format!("{}{}", redact_with(&CONTEXT_FREE, command.as_str()), &caps["altool_val"]));
    }
    if caps.name("akid_meta").is_some() {
        return Some(caps[0].to_owned());
    }
    if let Some(ids) = caps.name("idpair") {
        let value = &caps["idpair_val"];
        let shown = if looks_generated(value) { REDACTED.to_owned() } else { value.to_owned() };
        return Some(format!("{}{shown}", ids.as_str()));
    }
    if let Some(code) = caps.name("ansi_tok") {
        return Some(format!("{}{}", code.as_str(), redact_with(&SHAPES, &caps["ansi_tok_val"])));
    }
    // A token's prefix before a placeholder (`sk-proj-PLACEHOLDER`) stands in for one.
    if caps.name("tok_prefix").is_some() && is_stand_in(&caps[0]) {
        return Some(caps[0].to_owned());
    }
    None
}

/// The replacement of the forms of `rules` that batch 11 added, where a value's context says
/// what it is, or `None` for any other form.
fn replace_contexts(caps: &Captures<'_>) -> Option<String> {
    if let Some(label) = caps.name("argv") {
        let option = &caps["argv_opt"];
        let class = if is_secret_option(option) { KeyClass::Secret } else { classify_key(option) };
        return Some(labelled(label.as_str(), class, &caps["argv_val"]));
    }
    if let Some(open) = caps.name("box") {
        let (name, value, mut end) = (&caps["box_name"], &caps["box_val"], &caps["box_end"]);
        let shown = match redact_labelled(classify_key(name), value) {
            // The column keeps its width, so the table's right border stays aligned: a shorter
            // value is padded, a longer one takes the blanks before the border (one stays).
            Some(shown) => {
                let (width, shown_width) = (value.chars().count(), shown.chars().count());
                let blanks = end.len() - end.trim_start_matches([' ', '\t']).len();
                end = &end[blanks.min(shown_width.saturating_sub(width)).min(blanks.saturating_sub(1))..];
                format!("{shown}{}", " ".repeat(width.saturating_sub(shown_width)))
            }
            None => redact_with(&CONTEXT_FREE, value).into_owned(),
        };
        return Some(format!("{}{}{}{shown}{end}", open.as_str(), redact_with(&CONTEXT_FREE, name), &caps["box_mid"]));
    }
    if let Some(block) = caps.name("hexdump") {
        return Some(hexdump_block(block.as_str()));
    }
    if let Some(label) = caps.name("xml_named") {
        let tag = &caps["xml_named_tag"];
        let value = &caps["xml_named_val"];
        let shown = redact_labelled(classify_key(&caps["xml_named_name"]), value)
            .unwrap_or_else(|| redact_with(&CONTEXT_FREE, value).into_owned());
        return Some(format!("{}{}{shown}", mask_xml_attributes(tag), &label.as_str()[tag.len()..]));
    }
    None
}
