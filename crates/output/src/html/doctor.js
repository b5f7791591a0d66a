(function () {
  var table = document.getElementById("findings-table");
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var filter = document.getElementById("filter");
  var severity = document.getElementById("severity");
  var shown = document.getElementById("shown");
  var texts = rows.map(function (r) { return r.textContent.toLowerCase(); });
  function apply() {
    var term = filter.value.toLowerCase();
    var sev = severity.value;
    var count = 0;
    rows.forEach(function (r, i) {
      var keep = (!sev || r.getAttribute("data-s") === sev) && (!term || texts[i].indexOf(term) >= 0);
      r.classList.toggle("hidden", !keep);
      if (keep) { count += 1; }
    });
    shown.textContent = count + " of " + rows.length + " findings shown";
  }
  function key(row, column) {
    var cell = row.cells[column];
    return cell.getAttribute("data-sort") || cell.textContent;
  }
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, column) {
    th.addEventListener("click", function () {
      var descending = th.getAttribute("aria-sort") === "ascending";
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (o) { o.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", descending ? "descending" : "ascending");
      var order = rows.map(function (r, i) { return i; });
      order.sort(function (a, b) {
        var c = key(rows[a], column).localeCompare(key(rows[b], column), undefined, { numeric: true });
        return (descending ? -c : c) || a - b;
      });
      var sorted = order.map(function (i) { return rows[i]; });
      var sortedTexts = order.map(function (i) { return texts[i]; });
      rows = sorted;
      texts = sortedTexts;
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
  filter.addEventListener("input", apply);
  severity.addEventListener("change", apply);
  apply();
  document.documentElement.setAttribute("data-js-ready", "1");
})();
