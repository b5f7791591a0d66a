(function () {
  var marks = document.querySelectorAll("#timeline .mark");
  function select(index) {
    Array.prototype.forEach.call(document.querySelectorAll(".active"), function (e) { e.classList.remove("active"); });
    var row = document.getElementById("entry-" + index);
    var mark = document.querySelector('#timeline .mark[data-index="' + index + '"]');
    if (row) { row.classList.add("active"); row.scrollIntoView({ block: "center" }); }
    if (mark) { mark.classList.add("active"); }
  }
  Array.prototype.forEach.call(marks, function (m) {
    m.addEventListener("click", function () { select(m.getAttribute("data-index")); });
  });
  Array.prototype.forEach.call(document.querySelectorAll("#entries tbody tr"), function (r) {
    r.addEventListener("click", function () { select(r.getAttribute("data-index")); });
  });
  document.documentElement.setAttribute("data-marks", String(marks.length));
  document.documentElement.setAttribute("data-js-ready", "1");
})();
