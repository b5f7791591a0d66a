window.__upjetErrors = 0;
window.onerror = function () {
  window.__upjetErrors += 1;
  document.documentElement.setAttribute("data-js-errors", String(window.__upjetErrors));
};
