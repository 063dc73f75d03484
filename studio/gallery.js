// The gallery: every type in every theme, as scaled-down live HTML previews.
'use strict';
(async () => {
  const meta = await (await fetch('/studio/api/meta')).json();
  const grid = document.getElementById('grid');
  for (const type of meta.types) {
    for (const theme of meta.themes) {
      const card = document.createElement('figure');
      card.className = 'card';
      card.innerHTML = `<h3>${type} · ${theme}</h3><div class="thumb"><iframe title="${type} in ${theme}"></iframe></div>`;
      grid.append(card);
      const res = await fetch('/studio/api/html', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type, theme, doc: meta.examples[type] }),
      });
      card.querySelector('iframe').srcdoc = await res.text();
    }
  }
  document.body.dataset.ready = 'true';
})();
