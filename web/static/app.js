// The progress page follows its check through the JSON API and reloads when it ends; without
// JavaScript the page reloads itself (a meta refresh in <noscript>).
(function () {
  'use strict';
  var element = document.getElementById('progress');
  if (!element) return;
  var id = element.getAttribute('data-check');
  var bar = document.getElementById('progress-bar');
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (whole, name) { return name in values ? String(values[name]) : whole; });
  }
  function show(state) {
    if (state.position > 0) element.textContent = fill(element.getAttribute('data-queued'), { position: state.position });
    else if (state.progress) {
      element.textContent = fill(element.getAttribute('data-running'), { done: state.progress.done, total: state.progress.total, current: '; ' + state.progress.check });
      if (bar) { bar.max = state.progress.total; bar.value = state.progress.done; }
    } else element.textContent = element.getAttribute('data-starting');
  }
  function poll() {
    fetch('/api/v1/checks/' + encodeURIComponent(id), { headers: { accept: 'application/json' } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (state) {
        if (state && (state.state === 'done' || state.state === 'failed')) { window.location.reload(); return; }
        if (state) show(state);
        window.setTimeout(poll, 1000);
      })
      .catch(function () { window.setTimeout(poll, 3000); });
  }
  window.setTimeout(poll, 500);
})();
