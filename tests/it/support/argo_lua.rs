//! Argo CD's Lua sandbox, as far as a health script can tell: Lua 5.1 (gopher-lua is a Lua 5.1)
//! with only what argo-cd's `util/lua/lua.go` `runLua` opens when `useOpenLibs` is not set —
//! the base, package and table libraries, and its reduced `os` (`time`, `date`) preloaded for
//! `require("os")` and also registered into `table` (`OpenSafeOs` registers its functions
//! under the table library's name) — no string, math or io library. `obj` is the object as
//! `decodeValue` builds it: numbers as Lua numbers, arrays as sequences with nulls dropped
//! (gopher-lua's `Append` skips nil), objects as tables without their null fields. The result is
//! read as `ExecuteHealthLua` reads it: a table with a known health status, else "Unknown" with
//! "Lua returned an invalid health status". The clock `os.time()` reads is pinned, and the
//! local time zone of `os.time{…}` is UTC.
//!
//! One difference from gopher-lua stays: PUC Lua 5.1's base library also opens `coroutine`.

use mlua::{Lua, LuaOptions, MultiValue, StdLib, Table, Value};

/// The health statuses `isValidHealthStatusCode` accepts.
const STATUSES: [&str; 6] = ["Unknown", "Progressing", "Suspended", "Healthy", "Degraded", "Missing"];

/// What a health script said: Argo CD's `health.HealthStatus`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Health {
    /// `status`.
    pub status: String,
    /// `message` (empty when the script gave none).
    pub message: String,
}

/// Runs `script` on `obj` as Argo CD runs a health script without `useOpenLibs`, at `now`
/// (seconds since the epoch). An error is what Argo CD reports as the script's error.
pub fn run(script: &str, obj: &serde_json::Value, now: i64) -> Result<Health, String> {
    let lua = Lua::new_with(StdLib::TABLE | StdLib::PACKAGE, LuaOptions::default()).map_err(|e| e.to_string())?;
    install_safe_os(&lua, now).map_err(|e| e.to_string())?;
    let value = decode(&lua, obj).map_err(|e| e.to_string())?;
    lua.globals().set("obj", value).map_err(|e| e.to_string())?;
    let returned: MultiValue = lua.load(script).set_name("health.lua").eval().map_err(|e| e.to_string())?;
    match returned.into_iter().next() {
        Some(Value::Table(t)) => Ok(read_health(&t)),
        other => Err(format!(
            "expect table output from Lua script, not {}",
            other.map_or("nil".to_string(), |v| v.type_name().to_string())
        )),
    }
}

fn read_health(t: &Table) -> Health {
    let field = |k: &str| t.get::<Option<String>>(k).ok().flatten().unwrap_or_default();
    let status = field("status");
    if !STATUSES.contains(&status.as_str()) {
        return Health { status: "Unknown".into(), message: "Lua returned an invalid health status".into() };
    }
    Health { status, message: field("message") }
}

/// argo-cd `util/lua/lua.go` `decodeValue`.
fn decode(lua: &Lua, v: &serde_json::Value) -> mlua::Result<Value> {
    Ok(match v {
        serde_json::Value::Null => Value::Nil,
        serde_json::Value::Bool(b) => Value::Boolean(*b),
        serde_json::Value::Number(n) => Value::Number(n.as_f64().unwrap_or_default()),
        serde_json::Value::String(s) => Value::String(lua.create_string(s)?),
        serde_json::Value::Array(items) => {
            let t = lua.create_table()?;
            for item in items {
                let value = decode(lua, item)?;
                if !value.is_nil() {
                    t.raw_push(value)?;
                }
            }
            Value::Table(t)
        }
        serde_json::Value::Object(map) => {
            let t = lua.create_table()?;
            for (k, item) in map {
                t.raw_set(k.as_str(), decode(lua, item)?)?;
            }
            Value::Table(t)
        }
    })
}

/// argo-cd `util/lua/oslib_safe.go`: `time` and `date` only.
fn install_safe_os(lua: &Lua, now: i64) -> mlua::Result<()> {
    let os = lua.create_table()?;
    os.set(
        "time",
        lua.create_function(move |_, t: Option<Table>| match t {
            None => Ok(now),
            Some(t) => {
                let int = |k: &str, d: i64| t.raw_get::<Option<f64>>(k).ok().flatten().map_or(d, |v| v as i64);
                let date = chrono::NaiveDate::from_ymd_opt(int("year", -1) as i32, int("month", -1) as u32, 1)
                    .ok_or_else(|| mlua::Error::runtime("bad date"))?;
                let days =
                    date.and_hms_opt(0, 0, 0).expect("midnight").and_utc().timestamp() / 86400 + int("day", -1) - 1;
                Ok(days * 86400 + int("hour", 12) * 3600 + int("min", 0) * 60 + int("sec", 0))
            }
        })?,
    )?;
    os.set(
        "date",
        lua.create_function(move |lua, (format, at): (Option<String>, Option<i64>)| {
            let format = format.unwrap_or_else(|| "%c".into());
            let format = format.strip_prefix('!').unwrap_or(&format).to_string();
            let t = chrono::DateTime::from_timestamp(at.unwrap_or(now), 0).expect("in range");
            if format.starts_with("*t") {
                use chrono::{Datelike, Timelike};
                let table = lua.create_table()?;
                for (k, v) in [
                    ("year", t.year() as i64),
                    ("month", t.month() as i64),
                    ("day", t.day() as i64),
                    ("hour", t.hour() as i64),
                    ("min", t.minute() as i64),
                    ("sec", t.second() as i64),
                    ("wday", t.weekday().num_days_from_sunday() as i64 + 1),
                    ("yday", 0),
                ] {
                    table.set(k, v)?;
                }
                table.set("isdst", false)?;
                return Ok(Value::Table(table));
            }
            Ok(Value::String(lua.create_string(t.format(&format).to_string())?))
        })?,
    )?;
    let table: Table = lua.globals().get("table")?;
    for name in ["time", "date"] {
        table.set(name, os.get::<Value>(name)?)?;
    }
    let preload: Table = lua.globals().get::<Table>("package")?.get("preload")?;
    preload.set("os", lua.create_function(move |_, ()| Ok(os.clone()))?)?;
    Ok(())
}

#[test]
fn the_sandbox_has_no_string_library_and_no_os_global_and_os_comes_from_require() {
    let obj = serde_json::json!({"a": [1, null, 2]});
    let probe = r#"
        local os = require("os")
        return { status = "Healthy", message = type(string) .. " " .. type(math) .. " " .. type(io) .. " "
          .. type(table.time) .. " " .. #obj.a .. " " .. os.time() .. " " .. os.time({year=1970, month=1, day=2, hour=0}) }
    "#;
    let h = run(probe, &obj, 1_700_000_000).unwrap();
    assert_eq!(h.message, "nil nil nil function 2 1700000000 86400");
    assert!(run("return ('x'):upper()", &obj, 0).is_err(), "strings have no methods without the string library");
    assert!(run("return os.time()", &obj, 0).is_err(), "no os global without require");
    let bad = run("return { status = \"Fine\" }", &obj, 0).unwrap();
    assert_eq!(bad, Health { status: "Unknown".into(), message: "Lua returned an invalid health status".into() });
    assert!(run("return 1", &obj, 0).unwrap_err().contains("expect table output"));
}
