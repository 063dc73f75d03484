// The studio page: pick a type, theme, language and page size, edit the request, see the HTML and the PDF.
// Re-renders on every edit and whenever the server reloads a template, theme, locale or schema file. The stamp, gross
// prices and footer controls write their fields into the request, where they can be read and edited. The theme pane
// edits the theme's CSS and partials (unsaved: previewed at once, exported as a folder); the PDF can be shown as page
// images.
'use strict';
const $ = (id) => document.getElementById(id);
let meta;
let timer;
let renders = 0;
/** The theme being shown, its files as saved (GET /studio/api/theme/:id), and the unsaved edits. */
let files;
let draft = { partials: {} };
/** The paper of the HTML preview now showing. */
let paper;

function options(select, values, selected) {
  select.innerHTML = '';
  for (const v of values) select.add(new Option(v, v, false, v === selected));
}

/** The JSON of a text area (`{}` when `blank` is allowed and it is empty), or undefined with the status saying why. */
function readJson(id, what, blank) {
  const text = $(id).value;
  if (blank && !text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch (err) {
    $('status').textContent = `${what}: ${err.message}`;
    return undefined;
  }
}

async function render() {
  const doc = readJson('doc', 'JSON');
  const brand = readJson('brand', 'Brand JSON', true);
  if (doc === undefined || brand === undefined) return;
  const edited = draft.css !== undefined || Object.keys(draft.partials).length > 0;
  const body = JSON.stringify({
    type: $('type').value,
    theme: $('theme').value,
    lang: $('lang').value,
    page_size: $('page').value,
    doc,
    ...(edited ? { draft } : {}),
    ...(Object.keys(brand).length > 0 ? { brand } : {}),
  });
  const started = performance.now();
  const headers = { 'content-type': 'application/json' };
  const html = await fetch('/studio/api/html', { method: 'POST', headers, body });
  if (!html.ok) {
    const err = await html.json().catch(() => ({ error: html.statusText }));
    $('status').textContent = [err.error || 'error', ...(err.problems || [])].join(': ');
    return;
  }
  paper = meta.paper[$('page').value];
  $('html').srcdoc = printedPage.srcdoc(await html.text(), paper, meta.printerMargin).html;
  if ($('as-images').checked) {
    // The PDF's pages as images: any browser shows them, headless ones too.
    const pages = await fetch('/studio/api/pages', { method: 'POST', headers, body });
    if (pages.ok) {
      const { pages: images } = await pages.json();
      $('pages').replaceChildren(...images.map((src, i) => Object.assign(document.createElement('img'), { src, alt: `Page ${i + 1}` })));
    }
  } else {
    const pdf = await fetch('/studio/api/pdf', { method: 'POST', headers, body });
    if (pdf.ok) {
      const old = $('pdf').src;
      $('pdf').src = URL.createObjectURL(await pdf.blob());
      if (old.startsWith('blob:')) URL.revokeObjectURL(old);
    }
  }
  renders++;
  document.body.dataset.renders = String(renders);
  $('status').textContent = `rendered in ${Math.round(performance.now() - started)} ms`;
}

/** Scales the HTML preview (the printed page at full width, studio/page.js) to the pane, as tall as the document. */
function fitPreview() {
  if (!paper) return;
  const scale = printedPage.fit($('html-view'), $('html-size'), $('html'), paper, 'document');
  $('html-note').textContent = `· ${$('page').value} at ${Math.round(scale * 100)} %`;
}

function later() {
  clearTimeout(timer);
  timer = setTimeout(render, 250);
}

/** The file chosen in the theme pane: its unsaved text, else as saved (a partial the theme does not replace: shared). */
function showThemeFile() {
  const name = $('theme-file').value;
  if (!files) return;
  $('theme-source').value =
    name === 'theme.css' ? (draft.css ?? files.css) : (draft.partials[name] ?? files.partials[name] ?? files.shared[name] ?? '');
}

/** Loads the chosen theme's files and forgets the edits of the one before. */
async function loadThemeFiles() {
  files = await (await fetch(`/studio/api/theme/${encodeURIComponent($('theme').value)}`)).json();
  draft = { partials: {} };
  const names = [
    'theme.css',
    ...Object.keys(files.shared)
      .sort()
      .map((n) => `${n}`),
  ];
  $('theme-file').replaceChildren(
    ...names.map((n) => new Option(n === 'theme.css' ? n : `partials/${n}.hbs${files.partials[n] ? ' (its own)' : ''}`, n)),
  );
  showThemeFile();
}

/** The folder of the edited theme as a ZIP download. */
async function exportTheme() {
  const res = await fetch('/studio/api/export', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: $('export-id').value, from: $('theme').value, draft }),
  });
  if (!res.ok) {
    $('status').textContent = (await res.json()).error;
    return;
  }
  const a = Object.assign(document.createElement('a'), {
    href: URL.createObjectURL(await res.blob()),
    download: `${$('export-id').value}.zip`,
  });
  a.click();
  URL.revokeObjectURL(a.href);
}

/** A letterhead footer to try (`footer`): the lines German law wants on a business letter. */
const SAMPLE_FOOTER =
  'Sitz der Gesellschaft: Berlin · Amtsgericht Charlottenburg HRB 123456 B\nGeschäftsführer: Erika Mustermann · USt-IdNr. DE123456789\nBerliner Sparkasse · IBAN DE89 3704 0044 0532 0130 00';

/** Sets `key` in the request (or removes it when `value` is undefined), then renders. */
function setField(key, value) {
  const doc = readJson('doc', 'JSON');
  if (doc === undefined) return;
  if (value === undefined) delete doc[key];
  else doc[key] = value;
  $('doc').value = JSON.stringify(doc, null, 2);
  render();
}

/** The controls show what the request says (after an example is loaded or the request edited). */
function readControls() {
  let doc;
  try {
    doc = JSON.parse($('doc').value);
  } catch {
    return;
  }
  $('stamp').value = typeof doc.stamp === 'string' ? doc.stamp : '';
  $('gross').checked = doc.prices_include_tax === true;
  $('footer').checked = typeof doc.footer === 'string';
}

function loadExample() {
  const example = { ...meta.examples[$('type').value] };
  delete example.theme;
  $('doc').value = JSON.stringify(example, null, 2);
  readControls();
}

async function start() {
  meta = await (await fetch('/studio/api/meta')).json();
  options($('type'), meta.types, 'invoice');
  options($('theme'), meta.themes, meta.themes[0]); // the default theme comes first
  options($('lang'), meta.languages, 'en-US');
  options($('page'), meta.pageSizes, 'letter');
  loadExample();
  await loadThemeFiles();
  $('type').addEventListener('change', () => {
    loadExample();
    render();
  });
  // A theme that prefers a paper (its theme.json) shows on it; the page select can still change it.
  $('theme').addEventListener('change', async () => {
    const info = meta.themeInfo.find((t) => t.id === $('theme').value);
    if (info?.pageSize) $('page').value = info.pageSize;
    await loadThemeFiles();
  });
  $('theme-file').addEventListener('change', showThemeFile);
  $('theme-source').addEventListener('input', () => {
    const name = $('theme-file').value;
    if (name === 'theme.css') draft.css = $('theme-source').value;
    else draft.partials[name] = $('theme-source').value;
    later();
  });
  $('as-images').addEventListener('change', () => {
    $('pdf').hidden = $('as-images').checked;
    $('pages').hidden = !$('as-images').checked;
    render();
  });
  $('export').addEventListener('click', exportTheme);
  for (const id of ['theme', 'lang', 'page']) $(id).addEventListener('change', render);
  $('brand').addEventListener('input', later);
  $('doc').addEventListener('input', () => {
    readControls();
    later();
  });
  $('stamp').addEventListener('change', () => setField('stamp', $('stamp').value || undefined));
  $('gross').addEventListener('change', () => setField('prices_include_tax', $('gross').checked || undefined));
  $('footer').addEventListener('change', () => setField('footer', $('footer').checked ? SAMPLE_FOOTER : undefined));
  $('html').addEventListener('load', () => {
    fitPreview();
    // Inline fonts may finish loading after the load event and change the document's height.
    $('html').contentDocument?.fonts?.ready.then(fitPreview);
  });
  new ResizeObserver(fitPreview).observe($('html-view'));
  const events = new EventSource('/studio/api/events');
  events.addEventListener('reload', (e) => {
    const event = JSON.parse(e.data);
    document.body.dataset.version = String(event.version);
    $('problems').hidden = event.ok;
    $('problems').textContent = event.ok ? '' : event.problems.join('\n');
    if (event.ok) render();
  });
  await render();
}

start();
