// The gallery: every type in every theme, as scaled-down live HTML previews of the first printed page.
'use strict';
(async () => {
  const meta = await (await fetch('/studio/api/meta')).json();
  const grid = document.getElementById('grid');
  // Each thumbnail's frame follows its width: the page laid out at the paper's width, scaled down to the thumbnail.
  const papers = new Map();
  const fit = (thumb) => printedPage.fit(thumb, null, thumb.querySelector('iframe'), papers.get(thumb), 'page');
  const observer = new ResizeObserver((entries) => entries.forEach((entry) => fit(entry.target)));
  for (const type of meta.types) {
    for (const theme of meta.themes) {
      const doc = meta.examples[type];
      // letter when the request names none, as the service does (server/documents/validate.ts).
      const paper = meta.paper[doc.page_size ?? 'letter'];
      const card = document.createElement('figure');
      card.className = 'card';
      card.innerHTML = `<h3>${type} · ${theme}</h3><div class="thumb"><iframe title="${type} in ${theme}" tabindex="-1"></iframe></div>`;
      const thumb = card.querySelector('.thumb');
      thumb.style.aspectRatio = `${paper.width} / ${paper.height}`;
      papers.set(thumb, paper);
      grid.append(card);
      observer.observe(thumb);
      const res = await fetch('/studio/api/html', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type, theme, doc }),
      });
      thumb.querySelector('iframe').srcdoc = printedPage.srcdoc(await res.text(), paper, meta.printerMargin).html;
    }
  }
  document.body.dataset.ready = 'true';
})();
