// Runs only in browsers without ES module support (see index.html): all of them are outdated.
(function () {
  var message = 'You are using an outdated browser. It can be updated via your browser settings.';
  function show() {
    var root = document.getElementById('root') || document.body;
    root.innerHTML = '';
    var p = document.createElement('p');
    p.className = 'outdated';
    p.style.cssText =
      'font:18px/1.5 sans-serif;max-width:32em;margin:20vh auto;padding:0 24px;text-align:center';
    p.appendChild(document.createTextNode(message));
    root.appendChild(p);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', show);
  else show();
})();
