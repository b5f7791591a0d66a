-- Health of Crossplane managed resources reconciled by upjet providers, for Argo CD
-- (printed by `kubectl upjet health argocd`; docs/gitops-health.md compares it with Argo CD's
-- built-in check for *.upbound.io, case by case).
--
-- It gives Argo CD's built-in verdict wherever the object shows nothing more, and says what the
-- object alone shows about a cloud object upjet may have lost track of: a create that never
-- recorded its result (once its reconcile's time is up), an async operation past upjet's one-hour deadline, an external-name lost
-- after a create, an import that found nothing, a deletion that can never finish, and a paused
-- MR (Suspended, not Degraded).
--
-- Argo CD runs this without the Lua standard libraries unless useOpenLibs is set: only the base
-- and table libraries and a reduced `os` (time, date) behind require. There is no string
-- library, so timestamps are compared as text, which orders RFC 3339 times correctly only in
-- their UTC form with second precision ("2006-01-02T15:04:05Z", 20 characters): the form the
-- API server writes for conditions and a provider pod running in UTC writes for create marks.
-- A time in any other form is not compared, and the checks that need it keep the built-in
-- verdict.

local os = require("os")

-- upjet's defaultAsyncTimeout: every async create, update or delete runs under a deadline one
-- hour after it starts, and nothing moves the MR's conditions when the deadline passes.
local ASYNC_TIMEOUT_SECONDS = 3600

-- Kinds of the provider groups that are not managed resources and carry no conditions.
local WITHOUT_CONDITIONS = {
  ProviderConfig = true,
  ClusterProviderConfig = true,
  ProviderConfigUsage = true,
  ClusterProviderConfigUsage = true,
  StoreConfig = true,
}

-- Values providers write where a cloud ID belongs before the cloud assigned one
-- (kubectl-upjet's src/domain/placeholder.rs): an external-name holding one tracks nothing.
local PLACEHOLDERS = {
  ["STUB123456"] = true,
  ["bedrock12345"] = true,
  ["scraper12345"] = true,
  ["rcfg-1234567890abcdef1"] = true,
  ["rgw-055b56956a39439ba"] = true,
  ["snra-1234567890abcef12"] = true,
  ["artix3b6dqiognkp7732wzhroi"] = true,
  ["sgr-stub"] = true,
  ["stubcollection9999"] = true,
  ["vpce-stubvpcendpoint999999"] = true,
  ["a-stubassocid123456"] = true,
  ["tbdeid0:tbdeid0"] = true,
  ["tbdeid0"] = true,
  ["invalidnonemptystring"] = true,
}

-- How long the provider's reconciler gives one reconcile: upjet's generated controllers pass
-- managed.WithTimeout(3 * time.Minute) (`kubectl upjet health argocd --create-timeout` prints
-- another value here). A create marked pending less than this, plus crossplane-runtime's 30 s
-- reconcileGracePeriod and the mark's whole second, ago may still be running.
local RECONCILE_TIMEOUT_SECONDS = 180
local RESULT_MARGIN_SECONDS = 31

-- The reconciler's error at the create-incomplete gate (errCreateIncomplete).
local GATE = "cannot determine creation result - remove the crossplane.io/external-create-pending annotation if it is safe to proceed"

local PENDING = "crossplane.io/external-create-pending"
local SUCCEEDED = "crossplane.io/external-create-succeeded"
local FAILED = "crossplane.io/external-create-failed"

local metadata = obj.metadata or {}
local annotations = metadata.annotations or {}
local spec = obj.spec or {}
local status = obj.status

local function verdict(health, message)
  return { status = health, message = message }
end

local function conditions()
  if status == nil or status.conditions == nil then
    return {}
  end
  return status.conditions
end

local function condition(kind)
  for _, c in ipairs(conditions()) do
    if c.type == kind then
      return c
    end
  end
  return nil
end

local function condition_is(kind, value, reason)
  local c = condition(kind)
  return c ~= nil and (value == nil or c.status == value) and (reason == nil or c.reason == reason)
end

-- A time this script can compare: RFC 3339 in UTC with second precision.
local function comparable(text)
  return type(text) == "string" and #text == 20
end

-- floor(a / b) for integers, with Lua's own % (no math library in the sandbox).
local function div(a, b)
  return (a - a % b) / b
end

local function two_digits(n)
  if n < 10 then
    return "0" .. n
  end
  return "" .. n
end

-- Seconds since the epoch as RFC 3339 UTC text (days to a civil date, proleptic Gregorian).
local function utc_text(epoch)
  local seconds = epoch % 86400
  local z = div(epoch - seconds, 86400) + 719468
  local era = div(z, 146097)
  local doe = z - era * 146097
  local yoe = div(doe - div(doe, 1460) + div(doe, 36524) - div(doe, 146096), 365)
  local doy = doe - (365 * yoe + div(yoe, 4) - div(yoe, 100))
  local mp = div(5 * doy + 2, 153)
  local day = doy - div(153 * mp + 2, 5) + 1
  local month = mp + 3
  if mp >= 10 then
    month = mp - 9
  end
  local year = yoe + era * 400
  if month <= 2 then
    year = year + 1
  end
  return year .. "-" .. two_digits(month) .. "-" .. two_digits(day) .. "T" .. two_digits(div(seconds, 3600)) .. ":"
    .. two_digits(div(seconds % 3600, 60)) .. ":" .. two_digits(seconds % 60) .. "Z"
end

-- The later of two comparable times, either of which may be absent.
local function later(a, b)
  if a == nil or (b ~= nil and b > a) then
    return b
  end
  return a
end

-- The create marks, or nil when one of them is present in a form this script cannot compare.
local function create_marks()
  local marks = {}
  for name, key in pairs({ pending = PENDING, succeeded = SUCCEEDED, failed = FAILED }) do
    local value = annotations[key]
    if value ~= nil then
      if not comparable(value) then
        return nil
      end
      marks[name] = value
    end
  end
  return marks
end

local function policies()
  return spec.managementPolicies or { "*" }
end

local function allows(action)
  for _, p in ipairs(policies()) do
    if p == action or p == "*" then
      return true
    end
  end
  return false
end

local function mr_name()
  local name = obj.kind .. "/" .. (metadata.name or "")
  if metadata.namespace ~= nil then
    name = name .. " -n " .. metadata.namespace
  end
  return name
end

-- Paused (crossplane-runtime: the annotation's exact value "true", or an empty policy list):
-- deliberate, and nothing will change until someone resumes it. nil when not paused.
local function pause()
  if annotations["crossplane.io/paused"] == "true" then
    return "reconciliation is paused by the crossplane.io/paused annotation"
  end
  if spec.managementPolicies ~= nil and next(spec.managementPolicies) == nil then
    return "reconciliation is paused by an empty spec.managementPolicies"
  end
  return nil
end

-- crossplane-runtime's create-incomplete gate: pending strictly after the later of succeeded
-- and failed. The provider stops at it without a requeue.
local marks = create_marks()
local function create_incomplete()
  if marks == nil or marks.pending == nil then
    return false
  end
  local result = later(marks.succeeded, marks.failed)
  return result == nil or marks.pending > result
end

-- An incomplete create no result can come to any more: a later reconcile already stopped at
-- the gate (Synced False with its error, at or after the mark), or the reconcile timeout and its
-- grace have passed since the mark. Before that the create may still be running.
local function create_stuck()
  if not create_incomplete() then
    return false
  end
  local synced = condition("Synced")
  if synced ~= nil and synced.status == "False" and synced.message == GATE then
    local at = synced.lastTransitionTime
    if at == nil or (comparable(at) and at >= marks.pending) then
      return true
    end
  end
  return marks.pending <= utc_text(os.time() - RECONCILE_TIMEOUT_SECONDS - RESULT_MARGIN_SECONDS)
end

-- Whether deleting the MR deletes its cloud object (crossplane-runtime's ShouldDelete): the
-- policies decide, except that the default ["*"] leaves it to a legacy MR's deletionPolicy.
local function deletes_cloud_object()
  local p = policies()
  if #p == 1 and p[1] == "*" then
    return spec.deletionPolicy ~= "Orphan"
  end
  return allows("Delete")
end

-- A resource being deleted: Argo CD's own verdict, unless the MR can never get there. Paused,
-- the provider never removes its finalizer; at the create gate (when the deletion would delete
-- the cloud object) the reconciler stops before it observes or deletes anything.
if metadata.deletionTimestamp ~= nil then
  local message = "Pending deletion"
  if metadata.finalizers ~= nil and #metadata.finalizers > 0 then
    message = message .. "; blocked by finalizers: " .. table.concat(metadata.finalizers, ", ")
  end
  if not WITHOUT_CONDITIONS[obj.kind] then
    if pause() ~= nil then
      return verdict("Suspended", message .. ", which the provider removes only once resumed: " .. pause())
    end
    if create_stuck() and deletes_cloud_object() then
      return verdict("Degraded", message .. ", which never goes: the reconciler stops at the create-incomplete gate (create started at "
        .. marks.pending .. ", no result recorded) before it deletes anything (kubectl upjet history " .. mr_name() .. ")")
    end
  end
  return verdict("Progressing", message)
end

-- Provider configs and their usages: no conditions to judge.
if WITHOUT_CONDITIONS[obj.kind] and next(conditions()) == nil then
  if status ~= nil and status.users ~= nil and (obj.kind == "ProviderConfig" or obj.kind == "ClusterProviderConfig") then
    return verdict("Healthy", "Resource is in use.")
  end
  return verdict("Healthy", "Resource is up-to-date.")
end

if pause() ~= nil then
  return verdict("Suspended", pause())
end

if create_incomplete() and not create_stuck() then
  return verdict("Progressing", "create started at " .. marks.pending
    .. " and may still be running: the provider's reconcile allows it " .. RECONCILE_TIMEOUT_SECONDS
    .. "s, and 30s more to record the result (kubectl upjet doctor " .. mr_name() .. ")")
end

if create_stuck() then
  return verdict("Degraded", "create started at " .. marks.pending
    .. " and no result was recorded: the provider will not touch this MR until the " .. PENDING
    .. " annotation is resolved, and a cloud object may exist that nothing tracks (kubectl upjet history "
    .. mr_name() .. ")")
end

-- Argo CD's own verdicts, in the order of the conditions.
local ready = false
for _, c in ipairs(conditions()) do
  if (c.type == "LastAsyncOperation" or c.type == "Synced") and c.status == "False" then
    return verdict("Degraded", c.message)
  end
  if c.type == "Ready" and c.status == "True" then
    ready = true
  end
end

-- An async operation the MR still shows running: Ready=False/Creating with Synced=True, or
-- AsyncOperation=Ongoing. The latest time it can have started is the latest of those
-- conditions' transitions and the create marks; nil when one of them cannot be compared.
local running = (condition_is("Ready", "False", "Creating") and condition_is("Synced", "True"))
  or condition_is("AsyncOperation", nil, "Ongoing")

local function latest_possible_start()
  if marks == nil then
    return nil
  end
  local latest = later(later(marks.pending, marks.succeeded), marks.failed)
  for _, kind in ipairs({ "Ready", "Synced", "AsyncOperation" }) do
    local c = condition(kind)
    if c ~= nil and c.lastTransitionTime ~= nil then
      if not comparable(c.lastTransitionTime) then
        return nil
      end
      latest = later(latest, c.lastTransitionTime)
    end
  end
  return latest
end

local external_name = annotations["crossplane.io/external-name"]
local name_saved = external_name ~= nil and external_name ~= "" and not PLACEHOLDERS[external_name]

if running then
  local start = latest_possible_start()
  if start ~= nil and start < utc_text(os.time() - ASYNC_TIMEOUT_SECONDS) then
    local message = "an async operation still shows running, but it started at " .. start
      .. " at the latest and upjet cancels async operations an hour after their start: nothing will finish it"
    if name_saved then
      message = message .. "; the external-name is saved, so a working provider will observe the object again"
    else
      message = message .. "; no external-name is saved, so a cloud object it may have created is tracked by nothing"
    end
    return verdict("Degraded", message .. " (kubectl upjet history " .. mr_name() .. ")")
  end
end

-- The external-name lost after a create: upjet's async create saves it only through the
-- late-initialize update, and after a provider restart an MR without one creates a duplicate.
-- An ID equal to the MR's name is how name-identified kinds look before upjet's initializer
-- writes the name back, so it keeps the built-in verdict.
local id = nil
if status ~= nil and status.atProvider ~= nil and status.atProvider.id ~= nil and status.atProvider.id ~= ""
  and not PLACEHOLDERS[status.atProvider.id] then
  id = status.atProvider.id
end
if not name_saved then
  local why = nil
  if id ~= nil then
    if id ~= metadata.name then
      why = "status.atProvider.id is " .. id
    end
  elseif ready then
    why = "the MR is Ready"
  elseif marks ~= nil and marks.succeeded ~= nil and not running and not condition_is("Unknown", "False") then
    why = "creation succeeded"
  end
  if why ~= nil then
    local held = ""
    if external_name ~= nil and PLACEHOLDERS[external_name] then
      held = " (only the placeholder " .. external_name .. ", which names no cloud object)"
    end
    local message = "no external-name" .. held .. " although " .. why .. ": after a provider restart upjet will create a duplicate"
    -- upjet's Terraform CLI client (the only one that writes AsyncOperation) saves the name
    -- itself without LateInitialize; from the object alone the other client cannot be told.
    if not allows("LateInitialize") and condition("AsyncOperation") == nil then
      message = message .. "; managementPolicies lack LateInitialize: upjet's in-process clients (upjet v1 and later) will never save it, its Terraform CLI client saves it itself (which runs this kind is not shown)"
    end
    return verdict("Degraded", message .. " (kubectl upjet history " .. mr_name() .. ")")
  end
end

-- An import that found nothing says so nowhere: a policy set that neither creates nor updates
-- (other than exactly ["Observe"], which fails with "external resource does not exist") reports
-- Synced=True and never Ready.
local only_observe = #policies() == 1 and policies()[1] == "Observe"
if not allows("Create") and not allows("Update") and not only_observe and condition_is("Synced", "True", "ReconcileSuccess")
  and condition("Ready") == nil and id == nil then
  return verdict("Degraded", "the MR imports and its Observe found no cloud object: the external-name is wrong or the object is gone (kubectl upjet history "
    .. mr_name() .. ")")
end

if ready then
  return verdict("Healthy", "Resource is up-to-date.")
end
return verdict("Progressing", "Provisioning ...")
