//! Flux's evaluation of a `healthCheckExprs` entry (fluxcd/pkg `runtime/cel`,
//! `StatusEvaluator.Evaluate`), run with the `cel` crate (cel-rust): a `status.observedGeneration`
//! that differs from `metadata.generation` is InProgress; then `inProgress`, `failed` and
//! `current` are evaluated in that order on the object's top-level fields as variables, the
//! first that is true decides, and none true is InProgress. An expression that errs (a
//! top-level field the object lacks, a non-boolean result) is an error, as in Flux.

use cel::{Context, Program, Value};

/// kstatus's word for the verdict: `InProgress`, `Failed` or `Current`.
pub fn evaluate(entry: &serde_json::Value, obj: &serde_json::Value) -> Result<&'static str, String> {
    let generation = obj["metadata"]["generation"].as_i64();
    let observed = obj["status"]["observedGeneration"].as_i64();
    if let (Some(g), Some(o)) = (generation, observed)
        && g != o
    {
        return Ok("InProgress");
    }
    let mut context = Context::default();
    for (k, v) in obj.as_object().into_iter().flatten() {
        context.add_variable(k.as_str(), v.clone()).map_err(|e| format!("{k}: {e:?}"))?;
    }
    for (field, verdict) in [("inProgress", "InProgress"), ("failed", "Failed"), ("current", "Current")] {
        let Some(expr) = entry[field].as_str() else { continue };
        let program = Program::compile(expr).map_err(|e| format!("{field} does not parse: {e}"))?;
        match program.execute(&context) {
            Ok(Value::Bool(true)) => return Ok(verdict),
            Ok(Value::Bool(false)) => {}
            Ok(other) => return Err(format!("{field} is not a boolean: {other:?}")),
            Err(e) => return Err(format!("{field} failed: {e}")),
        }
    }
    Ok("InProgress")
}
