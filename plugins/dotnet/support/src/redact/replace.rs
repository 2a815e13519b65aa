//! The replacement for each match of the combined pattern: which form matched, and how its
//! secret part is hidden while its label, quotes and neighbours stay.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::{Captures, Match, Regex};

use super::{
    REDACTED,
    cli::{echoed_secrets, is_secret_option, option_value, redact_segment},
    connection::{own_labels, redact_connection_string},
    hexdump::hexdump_block,
    keys::{
        DESCRIBING_WORDS, EXACT_KEY_WORDS, KeyClass, account_key_under, classify_key, is_setting_name, key_like,
        looks_generated, names_key_map, normalize, token_like,
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

/// How a form's match is replaced. Each form of the combined pattern holds one group that no
/// other form holds (its alternative's first group, or the one named in [`FORMS`]), so a match is
/// replaced by the one entry whose group it captured.
pub(super) enum Shown {
    /// The group (a label) kept and the value group masked whole.
    Masked(&'static str),
    /// The group (a label) kept and the value group (the second) judged as the name group (the
    /// first) says.
    Named(&'static str, &'static str),
    /// The group (a label or a token's prefix) kept, the rest of the match hidden.
    AfterGroup,
    /// The whole match hidden.
    Hidden,
    /// The whole match kept: a shape that looks like a secret but is none.
    Kept,
    /// A form's own replacement, given the match and its group.
    By(fn(&Captures<'_>, Match<'_>) -> String),
}

use Shown::{AfterGroup, By, Hidden, Kept, Masked, Named};

/// Each form's group and its replacement; a match of none of them is the weak-label form
/// ([`weak`]). The groups are listed as the forms are in `rules`, more or less: the order does
/// not matter, since a match captures the group of its own form only (a test in `patterns`
/// checks it).
pub(super) static FORMS: &[(&str, Shown)] = &[
    // Codes and listings.
    ("rcodes", By(recovery_codes)),
    ("rcode_block", By(recovery_code_block)),
    ("bitlocker", Hidden),
    ("ssm_row", Masked("ssm_val")),
    ("azkey_row", Masked("azkey_val")),
    ("krb", Masked("krb_val")),
    ("spaced", By(spaced)),
    ("altool", By(altool)),
    ("akid_meta", Kept),
    ("idpair", By(idpair)),
    ("ansi_tok", By(ansi_token)),
    // Values that their context names (batch 11).
    ("argv", By(argv)),
    ("box", By(box_row)),
    ("hexdump", By(|_, block| hexdump_block(block.as_str()))),
    ("xml_named", By(xml_named)),
    // Private keys.
    ("pem_esc_kind", By(pem_escaped)),
    ("pem_kind", By(pem)),
    ("ppk", By(ppk)),
    // Labels, commands and calls.
    ("cs_path", By(|caps, label| labelled(label.as_str(), KeyClass::Connection, &caps["cs_path_val"]))),
    ("read_secret", By(read_secret)),
    (
        "cred_call",
        By(|caps, call| {
            format!("{}{}{}", call.as_str(), credential_arguments(call.as_str(), &caps["cred_args"]), &caps["cred_end"])
        }),
    ),
    ("stdin_echo", By(stdin_echo)),
    (
        "saved_val",
        By(|caps, value| format!("{}{}{}", &caps["saved_pre"], saved_secret(value.as_str()), &caps["saved_post"])),
    ),
    ("netrc", Masked("netrc_val")),
    ("pgpass", Masked("pgpass_val")),
    ("php_call", Masked("php_val")),
    ("proto_auth", Masked("proto_auth_val")),
    ("oracle", Masked("oracle_val")),
    ("named_quote", Masked("named_quote_val")),
    ("add_mask", Masked("add_mask_val")),
    ("ctor", Masked("ctor_val")),
    ("expect_send", Masked("send_val")),
    ("esc_sig", Masked("esc_sig_val")),
    ("login_call", Masked("login_call_val")),
    ("sm_row", Masked("sm_val")),
    ("ylist", Masked("ylist_val")),
    ("azp_eval", Masked("azp_val")),
    ("sql_pw", Masked("sql_pw_val")),
    ("user_token", Masked("user_token_val")),
    ("dpapi", Masked("dpapi_val")),
    ("tuple", Named("tuple_name", "tuple_val")),
    ("csv", Named("csv_name", "csv_val")),
    ("declare", Named("declare_name", "declare_val")),
    ("dav", Named("dav_name", "dav_val")),
    ("vso_var", Named("vso_name", "vso_val")),
    ("hdr_dir", Named("hdr_dir_name", "hdr_dir_val")),
    ("burn", Named("burn_name", "burn_val")),
    ("opt_kv", Named("opt_kv_name", "opt_kv_val")),
    ("glued_val", By(glued_to_prompt)),
    // Tables.
    ("ptab_head", By(|caps, head| table(head, &caps["ptab_rows"]))),
    ("ctab_head", By(|caps, head| table(head, &caps["ctab_rows"]))),
    ("xtab_head", By(|caps, head| table(head, &caps["xtab_rows"]))),
    ("rtab_head", By(ruled_table)),
    ("btab_top", By(box_table)),
    ("hcl", By(hcl)),
    ("minisign", AfterGroup),
    ("keylog", AfterGroup),
    ("block", By(block)),
    ("container", By(container)),
    ("ef", By(ef)),
    ("directive", By(directive)),
    ("vardump", By(|caps, label| format!("{}{}\"", label.as_str(), mask(&caps["vardump_val"])))),
    ("tf_output", By(tf_output)),
    ("cols", By(|caps, cols| columns_and_values(cols.as_str(), &caps["cols_vals"]))),
    ("echo", By(echo)),
    ("argpair", By(argpair)),
    ("msi", By(msi)),
    ("reassign", By(reassign)),
    ("bare_name", By(bare_name)),
    ("upair", By(|caps, label| when_password(label, &caps["upair_val"]))),
    ("uflag", By(|caps, label| when_password(label, &caps["uflag_val"]))),
    ("aws_pair", By(aws_pair)),
    ("enc_key", By(encoded_key)),
    ("segment", By(segment)),
    ("cookie", By(cookie)),
    ("flag", By(|caps, flag| format!("{}{}", flag.as_str(), option_value(flag.as_str(), &caps["flag_val"])))),
    ("wflag", By(|caps, flag| format!("{}{}", flag.as_str(), option_value(flag.as_str(), &caps["wflag_val"])))),
    // Headers and URLs.
    ("hdrp", By(|caps, scheme| format!("{}{}", scheme.as_str(), mask_auth_params(&caps["hdrp_params"])))),
    ("hdr", By(header)),
    ("bearer", By(bearer)),
    ("url", By(url)),
    ("url_user", By(url_user)),
    ("query", By(|caps, name| when_generated(name, &caps["query_val"]))),
    ("xml_tag", By(|caps, _| mask_xml_attributes(&caps[0]))),
    ("xml_kv", By(|caps, label| labelled(label.as_str(), classify_key(unwrap(&caps["kv_name"]).1), &caps["kv_val"]))),
    ("xml_el", By(xml_element)),
    ("login", AfterGroup),
    // Tokens known by their shape.
    ("jwt_wrap", By(wrapped_token)),
    ("jwt_split", By(wrapped_token)),
    ("totp_key", By(totp_key)),
    ("jwt", Hidden),
    ("aad", Hidden),
    ("fcm", Hidden),
    ("atlas", Hidden),
    ("mailgun", Hidden),
    ("mailchimp", Hidden),
    ("asana", Hidden),
    ("path_tok", By(|caps, marker| when_generated(marker, &caps["path_tok_val"]))),
    ("mollie", By(mollie)),
    ("tok_prefix", By(prefixed_token)),
    ("glued_prefix", By(glued_prefix)),
    ("vendor", By(vendor)),
    ("webhook", AfterGroup),
    ("glued_pat", AfterGroup),
    ("braintree", AfterGroup),
    ("guid_prefix", AfterGroup),
    ("octopus", AfterGroup),
    ("hex_prefix", AfterGroup),
    ("age", AfterGroup),
    ("sendgrid", AfterGroup),
    ("telegram", AfterGroup),
    ("nkey", AfterGroup),
    // Structured values and labels.
    ("arr", By(array)),
    ("kmap", By(key_map)),
    ("theory", By(|caps, name| format!("{}{})", name.as_str(), test_arguments(&caps["theory_args"])))),
    ("cs_pw", By(|caps, pairs| password_after(pairs, &caps["cs_pw_val"]))),
    ("cs_pw_first", By(first_password)),
    ("libpq", By(|caps, pairs| password_after(pairs, &caps["libpq_val"]))),
    ("cs_label", By(|caps, label| labelled(label.as_str(), KeyClass::Connection, &caps["cs_val"]))),
    ("pair", By(pair)),
    ("yaml_pair", By(yaml_pair)),
    (
        "sensitive",
        By(|caps, label| format!("{}{}", redact_with(&CONTEXT_FREE, label.as_str()), mask(&caps["sensitive_val"]))),
    ),
    ("value_label", By(value_label)),
    ("account_key", By(account_key)),
    ("account_line", By(account_line)),
    ("signing_key", AfterGroup),
    ("k8s_size", Kept),
    ("sample", Kept),
    ("arn", Kept),
    ("public_token", Kept),
    ("row", By(row)),
    ("key", By(key)),
    ("prose_skip", By(|caps, label| prose_skip(label.as_str(), &caps["prose_skip_val"], text(caps, "prose_skip_end")))),
    // A themed logger's colour before the value (Serilog's `with key \x1b[38;5;0045m"..."`)
    // stays with the words before it.
    ("prose", By(|caps, label| prose(caps, &caps[0][..label.len() + text(caps, "prose_ansi").len()]))),
];

/// The replacement for one match of [`FULL`], [`CONTEXT_FREE`] or [`SHAPES`]: its form's entry
/// of [`FORMS`].
pub(super) fn replace(caps: &Captures<'_>) -> String {
    let Some((group, shown)) = FORMS.iter().find_map(|(group, shown)| caps.name(group).map(|group| (group, shown)))
    else {
        return weak(caps);
    };
    match shown {
        Masked(value) => format!("{}{}", group.as_str(), mask(&caps[*value])),
        Named(name, value) => labelled(group.as_str(), classify_key(&caps[*name]), &caps[*value]),
        AfterGroup => format!("{}{REDACTED}", group.as_str()),
        Hidden => REDACTED.to_owned(),
        Kept => caps[0].to_owned(),
        By(form) => form(caps, group),
    }
}

/// A password after an address, a user named as credentials or a user option only when it reads
/// as one (`a@b.c / Admin` and `-u 1000:1000` stay).
fn when_password(label: Match<'_>, value: &str) -> String {
    if password_like(value) || generated_token(value) {
        format!("{}{}", label.as_str(), mask(value))
    } else {
        keep(label.as_str(), value)
    }
}

/// A query parameter's or a path's value after its marker only when it looks generated.
fn when_generated(marker: Match<'_>, value: &str) -> String {
    if looks_generated(value) { format!("{}{REDACTED}", marker.as_str()) } else { keep(marker.as_str(), value) }
}

/// Recovery codes listed after their name on one line: each code, when one reads as a code.
fn recovery_codes(caps: &Captures<'_>, label: Match<'_>) -> String {
    if caps.name("rcodes_device").is_some() {
        return caps[0].to_owned();
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
    format!("{}{}", label.as_str(), shown.join(","))
}

/// Recovery codes one a line: each line judged by [`recovery_code_line`].
fn recovery_code_block(_: &Captures<'_>, block: Match<'_>) -> String {
    let mut seen = false;
    block
        .as_str()
        .split_inclusive('\n')
        .map(|line| {
            let body = line.strip_suffix('\n').unwrap_or(line);
            let end = &line[body.len()..];
            recovery_code_line(body, &mut seen).map_or_else(|| line.to_owned(), |shown| format!("{shown}{end}"))
        })
        .collect()
}

/// An aligned label of several capitalised words and its value.
fn spaced(caps: &Captures<'_>, label: Match<'_>) -> String {
    let shown = labelled(label.as_str(), classify_key(&caps["spaced_name"]), &caps["spaced_val"]);
    format!("{shown}{}", &caps["spaced_end"])
}

/// `altool`'s command line, its key id kept.
fn altool(caps: &Captures<'_>, command: Match<'_>) -> String {
    format!("{}{}", redact_with(&CONTEXT_FREE, command.as_str()), &caps["altool_val"])
}

/// An id beside its secret: the secret when it looks generated.
fn idpair(caps: &Captures<'_>, ids: Match<'_>) -> String {
    let value = &caps["idpair_val"];
    let shown = if looks_generated(value) { REDACTED.to_owned() } else { value.to_owned() };
    format!("{}{shown}", ids.as_str())
}

/// A prefixed token after an ANSI code: the code kept, the token judged by its shape.
fn ansi_token(caps: &Captures<'_>, code: Match<'_>) -> String {
    format!("{}{}", code.as_str(), redact_with(&SHAPES, &caps["ansi_tok_val"]))
}

/// A secret option and its value as items of an argument list.
fn argv(caps: &Captures<'_>, label: Match<'_>) -> String {
    let option = &caps["argv_opt"];
    let class = if is_secret_option(option) { KeyClass::Secret } else { classify_key(option) };
    labelled(label.as_str(), class, &caps["argv_val"])
}

/// A two-cell row of a box-drawn table.
fn box_row(caps: &Captures<'_>, open: Match<'_>) -> String {
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
    format!("{}{}{}{shown}{end}", open.as_str(), redact_with(&CONTEXT_FREE, name), &caps["box_mid"])
}

/// An XML element whose `name` attribute names its value.
fn xml_named(caps: &Captures<'_>, label: Match<'_>) -> String {
    let tag = &caps["xml_named_tag"];
    let value = &caps["xml_named_val"];
    let shown = redact_labelled(classify_key(&caps["xml_named_name"]), value)
        .unwrap_or_else(|| redact_with(&CONTEXT_FREE, value).into_owned());
    format!("{}{}{shown}", mask_xml_attributes(tag), &label.as_str()[tag.len()..])
}

/// A PEM private key inside a string: escaped line breaks stay escaped, so the string that holds
/// the key stays valid.
fn pem_escaped(caps: &Captures<'_>, kind: Match<'_>) -> String {
    let newline = &caps["pem_esc"];
    let end = caps.name("pem_esc_end").map_or(String::new(), |m| format!("{newline}{}", m.as_str()));
    format!("-----BEGIN {}-----{newline}{REDACTED}{end}{}", kind.as_str(), text(caps, "pem_stop"))
}

/// A PEM private key with real line breaks (or flattened on one line): its BEGIN and END lines
/// kept.
fn pem(caps: &Captures<'_>, kind: Match<'_>) -> String {
    let whole = &caps[0];
    let newline = if whole.contains("\r\n") {
        "\r\n"
    } else if whole.contains('\n') || caps.name("pem_cut_end").is_none() {
        "\n"
    } else {
        " "
    };
    let end =
        caps.name("pem_end").or(caps.name("pem_cut_end")).map_or(String::new(), |m| format!("{newline}{}", m.as_str()));
    format!("-----BEGIN {}-----{newline}{REDACTED}{end}", kind.as_str())
}

/// The private lines of a PuTTY key.
fn ppk(caps: &Captures<'_>, label: Match<'_>) -> String {
    let newline = if caps[0].contains("\r\n") { "\r\n" } else { "\n" };
    format!("{}{newline}{REDACTED}", label.as_str())
}

/// A secret said to be read from somewhere, its value after a colon.
fn read_secret(caps: &Captures<'_>, label: Match<'_>) -> String {
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
    let shown =
        if value.contains("://") || describing { redact_with(&CONTEXT_FREE, value).into_owned() } else { mask(value) };
    format!("{}{shown}", label.as_str())
}

/// A secret `echo`ed into a command that reads it from standard input.
fn stdin_echo(caps: &Captures<'_>, echo: Match<'_>) -> String {
    let pipe = redact_with(&CONTEXT_FREE, &caps["stdin_pipe"]);
    format!("{}{}{pipe}", echo.as_str(), mask(&caps["stdin_val"]))
}

/// A value glued to the shell prompt that follows it: hidden when it reads as a password or a
/// generated token.
fn glued_to_prompt(caps: &Captures<'_>, value: Match<'_>) -> String {
    let value = value.as_str();
    let end = &caps[0][value.len()..];
    if value.len() >= 12 && (password_like(value) || generated_token(value)) {
        format!("{REDACTED}{end}")
    } else {
        format!("{}{end}", redact_with(&SHAPES, value))
    }
}

/// A table read from its header: each row judged by its columns' names, or as any text when the
/// header names no columns.
fn table(head: Match<'_>, rows: &str) -> String {
    // A header is names; a pipe table's first line may also be a row (no header), so it gets
    // the scan any line gets.
    let shown_head = redact_with(&CONTEXT_FREE, head.as_str());
    let shown: String = match table_columns(head.as_str()) {
        Some(table) => rows.split_inclusive('\n').map(|row| table_row(row, &table)).collect(),
        None => rows.split_inclusive('\n').map(|row| redact_with(&CONTEXT_FREE, row)).collect(),
    };
    format!("{shown_head}{shown}")
}

/// A table ruled by dashes under its header.
fn ruled_table(caps: &Captures<'_>, head: Match<'_>) -> String {
    let (rule, rows) = (&caps["rtab_rule"], &caps["rtab_rows"]);
    let shown_head = redact_with(&CONTEXT_FREE, head.as_str());
    let shown: String = match ruled_columns(head.as_str().trim_end_matches(['\r', '\n']), rule) {
        Some(table) => rows.split_inclusive('\n').map(|row| ruled_row(row, &table)).collect(),
        None => rows.split_inclusive('\n').map(|row| redact_with(&CONTEXT_FREE, row)).collect(),
    };
    format!("{shown_head}{rule}{shown}")
}

/// A box-drawn listing: each row a name and a value, or any text.
fn box_table(caps: &Captures<'_>, top: Match<'_>) -> String {
    let rows: String = caps["btab_rows"]
        .split_inclusive('\n')
        .map(|row| listing_row(row).unwrap_or_else(|| redact_with(&CONTEXT_FREE, row).into_owned()))
        .collect();
    format!("{}{rows}", top.as_str())
}

/// A Terraform variable named for a secret and its `default`.
fn hcl(caps: &Captures<'_>, label: Match<'_>) -> String {
    // The attributes between the name and `default` are scanned too.
    let label = redact_with(&CONTEXT_FREE, label.as_str());
    labelled(&label, classify_key(&caps["hcl_name"]), &caps["hcl_val"])
}

/// A YAML block scalar under a name: masked line by line when the name is secret.
fn block(caps: &Captures<'_>, label: Match<'_>) -> String {
    let value = &caps["block_val"];
    if !matches!(classify_key(&caps["block_name"]), KeyClass::Secret | KeyClass::Connection) {
        return keep(label.as_str(), value);
    }
    // Each line keeps its indentation and its line break.
    let lines: String = value.split('\n').skip(1).map(|line| format!("\n{}", mask_token_line(line))).collect();
    format!("{}{lines}", label.as_str())
}

/// A value inside a container named on its line.
fn container(caps: &Captures<'_>, label: Match<'_>) -> String {
    let name = caps.name("container_name").or(caps.name("container_el")).map_or("", |m| m.as_str());
    labelled(label.as_str(), classify_key(name), &caps["container_val"])
}

/// EF Core's logged parameters: the SQL says which parameters are secret; its own text gets the
/// forms any text gets.
fn ef(caps: &Captures<'_>, open: Match<'_>) -> String {
    let sql = &caps["ef_sql"];
    let list = mask_ef_parameters(&caps["ef_list"], &secret_parameters(sql));
    format!("{}{list}{}{}", open.as_str(), &caps["ef_end"], redact_with(&CONTEXT_FREE, sql))
}

/// A configuration directive and its value.
fn directive(caps: &Captures<'_>, label: Match<'_>) -> String {
    let value = &caps["directive_val"];
    let name = label.as_str().trim();
    let class = classify_key(name);
    let exact = EXACT_KEY_WORDS.contains(&normalize(name).as_str());
    let quoted = value.starts_with(['"', '\'']);
    let secret = class == KeyClass::Secret && (exact || quoted || password_like(value) || generated_token(value));
    let shown = if secret { format!("{}{}", label.as_str(), mask(value)) } else { keep(label.as_str(), value) };
    format!("{shown}{}", &caps["directive_end"])
}

/// A value printed bare on the line after its command (see [`command_output`]).
fn tf_output(caps: &Captures<'_>, command: Match<'_>) -> String {
    let glued = text(caps, "tf_glued");
    let end = &caps[0][command.len() + caps["tf_val"].len() + glued.len()..];
    let value = command_output(command.as_str(), &caps["tf_val"]);
    format!("{}{value}{}{end}", command.as_str(), redact_with(&SHAPES, glued))
}

/// An `echo` command line and its output.
fn echo(caps: &Captures<'_>, command: Match<'_>) -> String {
    // The command line without its line end, which alone no longer opens this form.
    let line = command.as_str().trim_end_matches(['\r', '\n']);
    let args = line.find("echo").map_or("", |at| &line[at + "echo".len()..]);
    let output = &caps["echo_out"];
    let shown = echoed_secrets(args, output).unwrap_or_else(|| redact_with(&CONTEXT_FREE, output).into_owned());
    format!("{}{}{shown}", redact_with(&CONTEXT_FREE, line), &command.as_str()[line.len()..])
}

/// A call's `("NAME", "VALUE")` arguments.
fn argpair(caps: &Captures<'_>, label: Match<'_>) -> String {
    // The first argument may be a token itself (a mock's `SendAsync("sk-...", "model")`).
    let label = redact_with(&SHAPES, label.as_str());
    labelled(&label, classify_key(&caps["argpair_name"]), &caps["argpair_val"])
}

/// An installer log's property and, when it changed, its new value.
fn msi(caps: &Captures<'_>, label: Match<'_>) -> String {
    let class = classify_key(&caps["msi_name"]);
    let new = caps.name("msi_new").map_or(String::new(), |new| labelled(&caps["msi_mid"], class, new.as_str()));
    format!("{}{new}", labelled(label.as_str(), class, &caps["msi_val"]))
}

/// MSBuild's property reassignment: both values as secret as the property's name.
fn reassign(caps: &Captures<'_>, label: Match<'_>) -> String {
    let class = classify_key(&caps["reassign_name"]);
    let shown = |value: &str| redact_labelled(class, value).unwrap_or_else(|| redact_with(&SHAPES, value).into_owned());
    let (value, previous) = (shown(&caps["reassign_val"]), shown(&caps["reassign_prev"]));
    format!("{}{value}{}{previous}", label.as_str(), &caps["reassign_mid"])
}

/// A secret-named identifier alone on its line and a password-like word on the next.
fn bare_name(caps: &Captures<'_>, name: Match<'_>) -> String {
    let value = &caps["bare_val"];
    let end = &caps[0][name.len() + value.len()..];
    let secret =
        classify_key(name.as_str().trim()) == KeyClass::Secret && password_like(value) && !is_setting_name(value);
    let shown = if secret { REDACTED.to_owned() } else { redact_with(&SHAPES, value).into_owned() };
    format!("{}{shown}{end}", name.as_str())
}

/// An AWS access key id and the 40 characters of its secret key further on its line.
fn aws_pair(caps: &Captures<'_>, pair: Match<'_>) -> String {
    let secret = &caps["aws_secret"];
    let shown = if token_like(secret, 40) { REDACTED } else { secret };
    format!("{}{shown}{}", redact_with(&SHAPES, pair.as_str()), &caps["aws_end"])
}

/// A query parameter URL-encoded inside another URL.
fn encoded_key(caps: &Captures<'_>, name: Match<'_>) -> String {
    let value = &caps["enc_val"];
    // The name without the encoded `?` or `&` before it and the `=` after it.
    let name_only = &name.as_str()[..name.len() - "%3D".len()];
    let name_only = name_only.get(3..).filter(|_| name_only.starts_with('%')).unwrap_or(name_only);
    labelled(name.as_str(), classify_key(name_only), value)
}

/// A command line's segment (see [`redact_segment`]).
fn segment(caps: &Captures<'_>, segment: Match<'_>) -> String {
    let assign = text(caps, "assign");
    format!("{assign}{}", redact_segment(&segment.as_str()[assign.len()..]))
}

/// A `Cookie` or `Set-Cookie` header's cookies.
fn cookie(caps: &Captures<'_>, header: Match<'_>) -> String {
    let set = header.as_str().to_ascii_lowercase().starts_with("set");
    format!("{}{}", header.as_str(), mask_cookies(&caps["cookie_val"], set))
}

/// An `Authorization` header: its scheme kept.
fn header(caps: &Captures<'_>, hdr: Match<'_>) -> String {
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
    format!("{}{scheme}{shown}", hdr.as_str())
}

/// A bearer token without a header: hidden when it has a digit or is long.
fn bearer(caps: &Captures<'_>, bearer: Match<'_>) -> String {
    let token = &caps["bearer_val"];
    if token.bytes().any(|b| b.is_ascii_digit()) || token.len() >= 20 {
        return format!("{}{REDACTED}", bearer.as_str());
    }
    caps[0].to_owned()
}

/// A URL's password.
fn url(caps: &Captures<'_>, url: Match<'_>) -> String {
    let whole = &caps[0];
    // A password already masked (`https://build:****@host`, as pip prints an index URL, or
    // `api:xxxxx@` by a program's own redaction) stays.
    if is_stand_in(&whole[url.len()..whole.len() - 1]) {
        return whole.to_owned();
    }
    format!("{}{REDACTED}@", url.as_str())
}

/// A URL's user that is a token.
fn url_user(caps: &Captures<'_>, scheme: Match<'_>) -> String {
    if looks_generated(&caps["url_token"]) { format!("{}{REDACTED}@", scheme.as_str()) } else { caps[0].to_owned() }
}

/// An XML element named for its value.
fn xml_element(caps: &Captures<'_>, element: Match<'_>) -> String {
    let attributes = redact_with(&SHAPES, &caps["xml_attrs"]);
    // A value in a CDATA section (a runsettings environment variable) keeps the section.
    let (open, value, close) = match caps.name("xml_cdata") {
        Some(open) => (open.as_str(), &caps["xml_cdata_val"], "]]>"),
        None => ("", &caps["xml_val"], ""),
    };
    let shown = redact_labelled(classify_key(element.as_str()), value)
        .unwrap_or_else(|| redact_with(&SHAPES, value).into_owned());
    format!("<{}{attributes}>{open}{shown}{close}</", element.as_str())
}

/// A JWT wrapped over lines: each line keeps its indentation and its line break.
fn wrapped_token(caps: &Captures<'_>, _: Match<'_>) -> String {
    caps[0].split_inclusive('\n').map(mask_token_line).collect()
}

/// A TOTP key in groups of four: words of four letters are a sentence, not a key.
fn totp_key(caps: &Captures<'_>, _: Match<'_>) -> String {
    let whole = &caps[0];
    if whole.bytes().any(|b| b.is_ascii_digit()) { REDACTED.to_owned() } else { whole.to_owned() }
}

/// Mollie's `live_`/`test_` keys: a body without a digit is a word.
fn mollie(caps: &Captures<'_>, prefix: Match<'_>) -> String {
    if caps["mollie_val"].bytes().any(|b| b.is_ascii_digit()) {
        format!("{}{REDACTED}", prefix.as_str())
    } else {
        caps[0].to_owned()
    }
}

/// A token behind a known prefix, its prefix kept.
fn prefixed_token(caps: &Captures<'_>, prefix: Match<'_>) -> String {
    let whole = &caps[0];
    // A token's prefix before a placeholder (`sk-proj-PLACEHOLDER`) stands in for one.
    // npm's tokens are `npm_` and 36 letters and digits: `npm_config_always_auth` is a setting's
    // name.
    if is_stand_in(whole) || prefix.as_str() == "npm_" && whole[4..].contains('_') {
        return whole.to_owned();
    }
    format!("{}{REDACTED}", prefix.as_str())
}

/// crates.io's `cio` is glued to its body: a word that starts so is not one.
fn glued_prefix(caps: &Captures<'_>, prefix: Match<'_>) -> String {
    if token_like(&caps[0], 35) { format!("{}{REDACTED}", prefix.as_str()) } else { caps[0].to_owned() }
}

/// A vendor's token, when its body reads as one (see [`vendor_secret`]).
fn vendor(caps: &Captures<'_>, prefix: Match<'_>) -> String {
    if vendor_secret(prefix.as_str(), &caps["vendor_body"]) {
        format!("{}{}{REDACTED}", text(caps, "vendor_sgr"), prefix.as_str())
    } else {
        caps[0].to_owned()
    }
}

/// A JSON array written one item a line under a name: each item as secret as the name.
fn array(caps: &Captures<'_>, label: Match<'_>) -> String {
    // A pair's value whose name is not secret gets every form: it is one line without the
    // pair's label, so no pair can match inside it and the rescan cannot recurse deeper.
    let class = classify_key(&caps["arr_name"]);
    let items = ARRAY_ITEM.replace_all(&caps["arr_items"], |item: &Captures<'_>| {
        let value = &item["item"];
        let shown = redact_labelled(class, value).unwrap_or_else(|| redact_with(&SHAPES, value).into_owned());
        format!("{}{shown}", &item["indent"])
    });
    format!("{}{items}", label.as_str())
}

/// An object whose name says its members are keys.
fn key_map(caps: &Captures<'_>, label: Match<'_>) -> String {
    let members = &caps["kmap_members"];
    let shown = if names_key_map(&caps["kmap_name"]) {
        key_map_members(members)
    } else {
        redact_with(&CONTEXT_FREE, members).into_owned()
    };
    format!("{}{shown}", label.as_str())
}

/// A pair whose name and value are separate fields of a record.
fn pair(caps: &Captures<'_>, pair: Match<'_>) -> String {
    // The fields between the name and the value are scanned too.
    let label = redact_with(&CONTEXT_FREE, pair.as_str());
    let value = &caps["pair_val"];
    match redact_labelled(classify_key(&caps["pair_name"]), value) {
        Some(shown) => format!("{label}{shown}\""),
        None => format!("{label}{}\"", redact_with(&FULL, value)),
    }
}

/// A YAML `name:` and `value:` pair on adjacent lines.
fn yaml_pair(caps: &Captures<'_>, pair: Match<'_>) -> String {
    // `name:` or PowerShell DSC's `Name:` (ASCII lower-casing keeps the offsets).
    let at = pair.as_str().to_ascii_lowercase().find("name:").map_or(pair.len(), |at| at + "name:".len());
    let name = pair.as_str()[at..].lines().next().unwrap_or("");
    let value = &caps["yaml_val"];
    match redact_labelled(classify_key(name.trim().trim_matches(['"', '\''])), value) {
        Some(shown) => format!("{}{shown}", pair.as_str()),
        None => format!("{}{}", pair.as_str(), redact_with(&FULL, value)),
    }
}

/// A value after the word `value`, judged as a neutral label's.
fn value_label(caps: &Captures<'_>, label: Match<'_>) -> String {
    let value = &caps["value_val"];
    let close = &caps[0][label.len() + value.len()..];
    format!("{}{close}", labelled(label.as_str(), KeyClass::Neutral, value))
}

/// A connection string's password after the pairs before it (`Server=db;User Id=app;Password=`,
/// libpq's `host=db user=app password=`), which are judged as any text is.
fn password_after(pairs: Match<'_>, value: &str) -> String {
    labelled(&redact_with(&CONTEXT_FREE, pairs.as_str()), KeyClass::Secret, value)
}

/// A connection string's password with blanks as its first pair, and the `;` and the next
/// connection keyword after it.
fn first_password(caps: &Captures<'_>, label: Match<'_>) -> String {
    let shown = labelled(label.as_str(), KeyClass::Secret, &caps["cs_pw_first_val"]);
    format!("{shown}{}", &caps["cs_pw_first_next"])
}

/// A JSON member whose value has an account key's shape: hidden unless its name says the bytes
/// are public (see [`account_key_under`]).
fn account_key(caps: &Captures<'_>, label: Match<'_>) -> String {
    hidden_account_key(caps, label, &caps["account_key_name"], &caps["account_key_val"], &caps["account_key_close"])
}

/// A line that is a name and a value with an account key's shape, judged as the JSON member is.
fn account_line(caps: &Captures<'_>, label: Match<'_>) -> String {
    hidden_account_key(caps, label, &caps["account_line_name"], &caps["account_line_val"], &caps["account_line_end"])
}

/// The label, the value hidden when [`account_key_under`] says so, and what closes it; or the
/// whole match kept.
fn hidden_account_key(caps: &Captures<'_>, label: Match<'_>, name: &str, value: &str, close: &str) -> String {
    if account_key_under(name, value) { format!("{}{REDACTED}{close}", label.as_str()) } else { caps[0].to_owned() }
}

/// A row of an aligned listing: a name and its value.
fn row(caps: &Captures<'_>, row: Match<'_>) -> String {
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
    format!("{shown_value}{}{wrap}", &value[shown.len()..])
}

/// A name that says secret, its separator and its value.
fn key(caps: &Captures<'_>, key: Match<'_>) -> String {
    let whole = &caps[0];
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
