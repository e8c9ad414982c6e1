// Cellar's info page: reads /jmx, /api/server, /api/tables and /api/samples and renders the tabs;
// every figure cell carries data-metric="<sub>.<attribute>" naming the /jmx attribute it shows
// (and data-format="time" when it shows that attribute's milliseconds as a date and time), and
// every cell of /api/server's facts data-field="<field>".
'use strict';

const REFRESH_MILLIS = 2000;
const SERVER = 'Server';
const SUB_OF = (name) => {
  const match = /sub=([^,]+)/.exec(name);
  if (match) return match[1];
  const named = /name=([^,]+)/.exec(name);
  return named ? named[1] : name;
};

let beans = {};
let refreshes = 0;
const charts = {};

function format(value) {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') {
    if (Number.isInteger(value)) return value.toLocaleString('en-US');
    return value.toLocaleString('en-US', {maximumFractionDigits: 4});
  }
  return String(value);
}

function pad(number) {
  return String(number).padStart(2, '0');
}

// Times read as local ISO dates, '2026-12-07 21:20:35 +01:00': sortable, and the offset says
// which clock they are on.
function dateTime(millis) {
  const date = new Date(millis);
  const offset = -date.getTimezoneOffset();
  return date.getFullYear() + '-' + pad(date.getMonth() + 1) + '-' + pad(date.getDate()) + ' '
    + clock(millis) + ' ' + (offset < 0 ? '-' : '+') + pad(Math.floor(Math.abs(offset) / 60))
    + ':' + pad(Math.abs(offset) % 60);
}

function clock(millis) {
  const date = new Date(millis);
  return pad(date.getHours()) + ':' + pad(date.getMinutes()) + ':' + pad(date.getSeconds());
}

function duration(millis) {
  let seconds = Math.floor(millis / 1000);
  const parts = [];
  for (const [unit, size] of [['d', 86400], ['h', 3600], ['min', 60]]) {
    if (seconds >= size || parts.length) parts.push(Math.floor(seconds / size) + ' ' + unit);
    seconds %= size;
  }
  parts.push(seconds + ' s');
  return parts.join(' ');
}

function human(bytes) {
  if (typeof bytes !== 'number') return '';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
  return value.toFixed(unit === 0 ? 0 : 1) + ' ' + units[unit];
}

function fill(td, sub, attribute) {
  td.dataset.metric = sub + '.' + attribute;
  const value = (beans[sub] || {})[attribute];
  if (td.dataset.format === 'time') {
    td.textContent = typeof value === 'number' ? dateTime(value) : '';
    return;
  }
  td.className = 'num';
  td.textContent = format(value);
  if (/Size|Bytes|Capacity/.test(attribute) && typeof value === 'number') td.title = human(value);
}

function cell(sub, attribute) {
  const td = document.createElement('td');
  fill(td, sub, attribute);
  return td;
}

function row(table, label, sub, attribute) {
  const tr = document.createElement('tr');
  const th = document.createElement('th');
  th.textContent = label;
  tr.append(th, cell(sub, attribute));
  table.append(tr);
}

function section(table, title) {
  const tr = document.createElement('tr');
  const th = document.createElement('th');
  th.className = 'section';
  th.colSpan = 2;
  th.textContent = title;
  tr.append(th);
  table.append(tr);
}

function figures(tableId, sub, rows) {
  const table = document.getElementById(tableId);
  table.replaceChildren();
  for (const [label, attribute] of rows) {
    if (attribute in (beans[sub] || {})) row(table, label, sub, attribute);
  }
}

function grid(tableId, headers, rows) {
  const table = document.getElementById(tableId);
  table.replaceChildren();
  const head = document.createElement('tr');
  for (const header of headers) {
    const th = document.createElement('th');
    th.textContent = header;
    head.append(th);
  }
  table.append(head);
  for (const row of rows) {
    const tr = document.createElement('tr');
    for (const item of row) {
      if (item instanceof HTMLElement) {
        tr.append(item);
      } else {
        const td = document.createElement('td');
        td.textContent = format(item);
        if (typeof item === 'number') td.className = 'num';
        tr.append(td);
      }
    }
    table.append(tr);
  }
}

function renderAbout(about) {
  const shown = {
    version: about.version,
    uptime: duration(about.uptimeMillis),
    directory: about.directory,
    infoPort: String(about.infoPort),
    rpcPort: about.rpcPort === null ? 'none (embedded: no cellar serve over this database)'
      : String(about.rpcPort),
  };
  for (const td of document.querySelectorAll('#about-table [data-field]')) {
    td.textContent = shown[td.dataset.field];
  }
  for (const td of document.querySelectorAll('#about-table [data-metric]')) {
    const [sub, attribute] = td.dataset.metric.split('.');
    fill(td, sub, attribute);
  }
}

function renderSummary() {
  const server = beans[SERVER] || {};
  document.getElementById('server-name').textContent = server.serverName || '';
  figures('summary-table', SERVER, [
    ['Tables (regions)', 'regionCount'], ['Stores', 'storeCount'],
    ['Store files', 'storeFileCount'], ['Store file bytes', 'storeFileSize'],
    ['MemStore bytes', 'memStoreSize'], ['Read requests', 'readRequestCount'],
    ['Write requests', 'writeRequestCount'], ['Block cache hit %', 'blockCacheCountHitPercent'],
    ['Allocator heap ratio', 'ByteBuffAllocatorHeapAllocationRatio'],
    ['GC pauses > 1 s', 'pauseInfoThresholdExceeded']]);
  const operations = ['Get', 'MultiGet', 'Put', 'Delete', 'PutBatch', 'CheckAndMutate',
    'ScanNext', 'ScanTime', 'FlushTime', 'CompactionTime', 'MajorCompactionTime', 'PauseTimeWithGc'];
  const columns = ['num_ops', 'mean', 'median', '99th_percentile', '99.9th_percentile', 'max'];
  grid('operations-table', ['operation', 'count', 'mean', 'median', 'p99', 'p99.9', 'max'],
    operations.filter((op) => (op + '_num_ops') in server)
      .map((op) => [op, ...columns.map((c) => cell(SERVER, op + '_' + c))]));
  const wal = beans.WAL || {};
  if ('appendCount' in wal) {
    const walRows = [['Log appends', 'appendCount'], ['Log syncs', 'syncCount'],
      ['Entries per sync', 'entriesPerSync'], ['Sync p99 (ms)', 'SyncTime_99th_percentile']];
    const table = document.getElementById('summary-table');
    for (const [label, attribute] of walRows) row(table, label, 'WAL', attribute);
  }
}

// The allocator tab's rows, by section: a label for each /jmx attribute. A CellarMemory
// attribute missing here still shows, under "Other", its name cut into words.
const POOL_FIGURES = [['Size', 'size of one (bytes)'], ['MaxCount', 'most that may be created'],
  ['CreatedCount', 'created'], ['UsedCount', 'in use'], ['FreeCount', 'created and free'],
  ['AllocatedBytes', 'bytes handed out']];
const ALLOCATOR_SECTIONS = [
  ['Pooled allocator (as HBase counts it)', SERVER, [
    ['Bytes allocated from the pool', 'ByteBuffAllocatorPoolAllocationBytes'],
    ['Bytes allocated on the heap instead', 'ByteBuffAllocatorHeapAllocationBytes'],
    ['Heap allocation ratio', 'ByteBuffAllocatorHeapAllocationRatio'],
    ['Buffers in the pool', 'ByteBuffAllocatorTotalBufferCount'],
    ['Buffers in use', 'ByteBuffAllocatorUsedBufferCount']]],
  ['Pooled buffers', 'CellarMemory', [
    ...POOL_FIGURES.map(([word, label]) => ['Buffers: ' + label, 'allocatorBuffer' + word]),
    ...POOL_FIGURES.map(([word, label]) => ['Large buffers: ' + label,
      'allocatorLargeBuffer' + word]),
    ['Allocations that took heap memory', 'allocatorHeapAllocationCount']]],
  ['MemStore chunk pool', 'CellarMemory', [
    ['Chunk size (bytes)', 'chunkPoolChunkSize'], ['Most chunks it may create', 'chunkPoolMaxCount'],
    ['Chunks created', 'chunkPoolCreatedCount'], ['Chunks free in the pool', 'chunkPoolPooledCount'],
    ['Chunks held by MemStores', 'chunkPoolInUseCount'],
    ['One-off heap chunks made', 'chunkPoolHeapChunkCount']]],
  ['Memory', 'CellarMemory', [
    ['Off-heap bytes held', 'offHeapBytes'], ['Heap used (bytes)', 'heapUsedBytes'],
    ['Heap maximum (bytes)', 'heapMaxBytes']]],
];

function words(attribute) {
  const text = attribute.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function renderAllocator() {
  const table = document.getElementById('allocator-table');
  table.replaceChildren();
  const labelled = new Set();
  for (const [title, sub, rows] of ALLOCATOR_SECTIONS) {
    const present = rows.filter(([, attribute]) => attribute in (beans[sub] || {}));
    if (!present.length) continue;
    section(table, title);
    for (const [label, attribute] of present) {
      row(table, label, sub, attribute);
      labelled.add(sub + '.' + attribute);
    }
  }
  const memory = beans.CellarMemory || {};
  const others = Object.keys(memory).filter((name) => typeof memory[name] === 'number'
    && !labelled.has('CellarMemory.' + name));
  if (others.length) section(table, 'Other');
  for (const name of others) row(table, words(name), 'CellarMemory', name);
}

function renderBlockCache() {
  figures('cache-summary-table', SERVER, [
    ['Blocks', 'blockCacheCount'], ['Size (bytes)', 'blockCacheSize'],
    ['Free (bytes)', 'blockCacheFreeSize'], ['Hits', 'blockCacheHitCount'],
    ['Misses', 'blockCacheMissCount'], ['Hit %', 'blockCacheCountHitPercent'],
    ['Hits (caching requests) %', 'blockCacheExpressHitPercent'],
    ['Evicted blocks', 'blockCacheEvictionCount'],
    ['Failed insertions', 'blockCacheFailedInsertionCount']]);
  const categories = [['DATA', 'Data'], ['INDEX', 'LeafIndex'], ['BLOOM', 'BloomChunk'],
    ['META', 'Meta']];
  grid('cache-category-table', ['category', 'hits', 'misses'], categories.map(([label, word]) =>
    [label, cell(SERVER, 'blockCache' + word + 'HitCount'),
      cell(SERVER, 'blockCache' + word + 'MissCount')]));
  const detail = beans.CellarBlockCache || {};
  for (const tier of ['l1', 'l2']) {
    const prefix = tier + 'Cache';
    figures('cache-' + tier + '-table', SERVER, [
      ['Blocks', prefix + 'Count'], ['Size (bytes)', prefix + 'Size'],
      ['Free (bytes)', prefix + 'FreeSize'], ['Hits', prefix + 'HitCount'],
      ['Misses', prefix + 'MissCount'], ['Hit ratio', prefix + 'HitRatio'],
      ['Evicted blocks', prefix + 'EvictionCount']]);
    const table = document.getElementById('cache-' + tier + '-table');
    for (const [label, word] of [['Implementation', 'Implementation'],
      ['Eviction runs', 'EvictionRunCount']]) {
      if ((prefix + word) in detail) row(table, label, 'CellarBlockCache', prefix + word);
    }
  }
  // RegionServer's l2Cache* figures read 0 without an L2, as HBase's do: only the detail
  // bean's tier says whether one is configured.
  const hasL1 = 'l1CacheImplementation' in detail;
  const hasL2 = 'l2CacheImplementation' in detail;
  document.getElementById('cache-none').hidden = hasL1;
  document.getElementById('l1-present').hidden = !hasL1;
  document.getElementById('l2-none-l1').hidden = !hasL1;
  document.getElementById('l2-none').hidden = hasL2;
  document.getElementById('l2-present').hidden = !hasL2;
  const l2 = document.getElementById('cache-l2-table');
  for (const [label, attribute] of [['Engine', 'bucketCacheIoEngine'],
    ['Capacity (bytes)', 'bucketCacheCapacity'], ['Used slot bytes', 'bucketCacheUsedSize'],
    ['Block bytes', 'bucketCacheRealSize'], ['Fragmentation (bytes)', 'bucketCacheFragmentationBytes'],
    ['Waiting for a writer', 'bucketCacheQueuedCount'],
    ['Checksum failures', 'bucketCacheChecksumFailures'], ['I/O errors', 'bucketCacheIoErrors']]) {
    if (attribute in detail) row(l2, label, 'CellarBlockCache', attribute);
  }
  const sizes = Object.keys(detail)
    .map((name) => /^bucketSizeClass(\d+)TotalSlots$/.exec(name))
    .filter((match) => match).map((match) => Number(match[1])).sort((a, b) => a - b);
  const fields = ['BucketCount', 'TotalSlots', 'UsedSlots', 'FreeSlots', 'UsedBytes',
    'FragmentationBytes', 'FullBuckets', 'FreeBuckets'];
  grid('bucket-table', ['slot size', 'buckets', 'slots', 'used', 'free', 'used bytes',
    'fragmentation', 'full buckets', 'free buckets'],
    sizes.map((size) => [size, ...fields.map((f) =>
      cell('CellarBlockCache', 'bucketSizeClass' + size + f))]));
  renderAllocator();
}

const CURVE = 'CellarMissRatioCurve';

function number(value) {
  return typeof value === 'number' ? value : null;
}

function renderCurve() {
  const curve = beans[CURVE];
  const element = document.getElementById('chart-curve');
  if (!curve) {
    document.getElementById('curve-table').replaceChildren();
    element.textContent = 'No curve: the block cache is off, or ' +
      'cellar.blockcache.curve.enabled is false.';
    return;
  }
  figures('curve-table', CURVE, [
    ['Configured size for data blocks (bytes)', 'configuredCacheSize'],
    ['Estimated hit ratio there', 'configuredHitRatio'],
    ['Measured hit ratio there', 'measuredHitRatio'],
    ['Sampling rate', 'samplingRate'], ['Sampled lookups', 'sampledAccesses'],
    ['Blocks tracked', 'trackedBlocks']]);
  const points = [];
  for (let k = 0; ('point' + String(k).padStart(2, '0') + 'Size') in curve; k++) {
    const name = 'point' + String(k).padStart(2, '0');
    points.push([curve[name + 'Size'] / 1048576, number(curve[name + 'HitRatio'])]);
  }
  const configured = curve.configuredCacheSize / 1048576;
  const measured = number(curve.measuredHitRatio);
  const sizes = points.map((p) => p[0]);
  const marker = points.map((p, k) => (k === curve.configuredPoint ? measured : null));
  element.dataset.configuredMiB = String(configured);
  element.dataset.points = String(points.length);
  const data = [sizes, points.map((p) => p[1]), marker];
  if (typeof uPlot === 'undefined') {
    element.textContent = 'Miss-ratio curve: chart library not loaded';
    return;
  }
  if (!charts['chart-curve']) {
    charts['chart-curve'] = new uPlot({
      title: 'Estimated hit ratio by cache size (MiB, log scale)', width: 640, height: 300,
      scales: {x: {time: false, distr: 3, range: (u, min, max) => [min, max]},
        y: {range: [0, 1]}},
      series: [{label: 'cache MiB'},
        {label: 'estimated', stroke: '#1f77b4', width: 2},
        {label: 'measured at the configured size', stroke: '#d62728',
          points: {show: true, size: 9, fill: '#d62728'}, paths: () => null}],
      padding: [null, 40, null, null],
      axes: [{}, {size: axisSize}],
      hooks: {draw: [(u) => {
        const x = u.valToPos(Number(element.dataset.configuredMiB), 'x', true);
        const ctx = u.ctx;
        ctx.save();
        ctx.strokeStyle = '#d62728';
        ctx.setLineDash([6, 4]);
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
        ctx.restore();
      }]},
    }, data, element);
  } else {
    charts['chart-curve'].setData(data);
  }
}

function renderTables(data) {
  document.getElementById('directory').textContent = 'Directory: ' + data.directory;
  const rows = [];
  for (const table of data.tables) {
    for (const family of table.families) {
      const names = family.files.map((f) => f.name + ' (' + human(f.bytes) + ')').join(', ');
      const bytes = family.files.reduce((sum, f) => sum + Math.max(0, f.bytes), 0);
      rows.push([table.name, family.name, family.files.length, bytes, family.memStoreBytes,
        names]);
    }
  }
  grid('tables-table', ['table', 'family', 'files', 'file bytes', 'MemStore bytes', 'files'],
    rows);
}

const COLORS = ['#1f77b4', '#d62728', '#2ca02c'];
const measure = document.createElement('canvas').getContext('2d');

// A y axis as wide as its widest label in the axis's own font, plus its tick, its gap and a
// margin, so no label is cut at the canvas's left edge (uPlot's default is a fixed 50 px).
function axisSize(u, values, axisIndex) {
  const axis = u.axes[axisIndex];
  measure.font = axis.font[0];
  const widest = Math.max(0, ...(values || [])
    .map((value) => measure.measureText(value == null ? '' : String(value)).width));
  return Math.ceil(widest / devicePixelRatio + axis.ticks.size + axis.gap) + 8;
}

function axisLabels(render) {
  return (u, splits) => splits.map((value) => (value == null ? null : render(value)));
}

// On a log axis, grid lines and ticks at the decades only: the multiples between them crowd a
// small chart.
function decades(u, splits) {
  return splits.map((value) => {
    const exponent = Math.log10(value);
    return Math.abs(exponent - Math.round(exponent)) < 1e-9 ? value : null;
  });
}

function compact(value) {
  return value.toLocaleString('en-US', {notation: 'compact', maximumFractionDigits: 1});
}

function micros(value) {
  if (value >= 1e6) return format(value / 1e6) + ' s';
  if (value >= 1e3) return format(value / 1e3) + ' ms';
  return format(value) + ' µs';
}

// uPlot draws a sample's point only when the samples are few, and a line needs two neighbours:
// a sample between gaps (an interval with lookups between idle ones) would not show at all, so
// such lone samples get their point whatever the density.
function lonePoints(u, seriesIndex, show) {
  if (show) return null;
  const values = u.data[seriesIndex];
  const lone = [];
  for (let i = 0; i < values.length; i++) {
    if (values[i] != null && values[i - 1] == null && values[i + 1] == null) lone.push(i);
  }
  return lone.length ? lone : null;
}

// p99 latency is one chart on a log axis rather than one chart per operation: gets and writes
// stay comparable on one time line, and every decade gets the same height, so microsecond gets
// stay visible beside a write that took milliseconds. An interval without the operation has no
// latency, and 0 has no place on a log axis: it is a gap.
const CHART_SPECS = [
  {id: 'chart-ops', title: 'Operations per second', axis: compact, series: [
    ['gets', 'getsPerSecond'], ['writes', 'writesPerSecond'], ['scanned rows', 'scanRowsPerSecond']]},
  {id: 'chart-p99', title: 'p99 latency (log scale)', axis: micros, log: true, series: [
    ['get', 'getP99Micros'], ['write', 'writeP99Micros']]},
  {id: 'chart-hits', title: 'Hit ratio per tier', axis: format, range: [0, 1], series: [
    ['L1', 'l1HitRatio'], ['L2', 'l2HitRatio']]},
  {id: 'chart-evictions', title: 'Evicted blocks per sample', axis: compact, series: [
    ['L1', 'l1Evictions'], ['L2', 'l2Evictions']]},
  {id: 'chart-memory', title: 'Memory', axis: human, series: [
    ['heap used', 'heapUsedBytes'], ['off-heap held', 'offHeapBytes']]},
  {id: 'chart-gc', title: 'GC pause time per sample (ms)', axis: compact, series: [
    ['pauses', 'gcPauseMillis']]},
];

function chart(spec, samples) {
  const element = document.getElementById(spec.id);
  if (typeof uPlot === 'undefined') {
    element.textContent = spec.title + ': chart library not loaded';
    return;
  }
  const columns = [samples.map((s) => s.timeMillis / 1000),
    ...spec.series.map(([, field]) => samples.map((s) =>
      (spec.log && !(s[field] > 0) ? null : s[field])))];
  if (charts[spec.id]) {
    charts[spec.id].setData(columns);
    return;
  }
  const y = spec.log ? {distr: 3} : spec.range ? {range: spec.range} : {};
  const yAxis = {size: axisSize, values: axisLabels(spec.axis)};
  if (spec.log) Object.assign(yAxis, {grid: {filter: decades}, ticks: {filter: decades}});
  charts[spec.id] = new uPlot({
    title: spec.title, width: 540, height: 240, padding: [null, 40, null, null],
    scales: {y},
    series: [{label: 'time', value: (u, v) => (v == null ? '--' : dateTime(v * 1000))},
      ...spec.series.map(([label], i) => ({label, stroke: COLORS[i], width: 1.5,
        value: (u, v) => (v == null ? '--' : spec.axis(v)),
        points: {size: 6, fill: COLORS[i], filter: lonePoints}}))],
    axes: [{space: 80, values: axisLabels((v) => clock(v * 1000))}, yAxis],
  }, columns, element);
}

function renderCharts(data) {
  for (const spec of CHART_SPECS) chart(spec, data.samples);
}

async function refresh() {
  try {
    const jmx = await (await fetch('/jmx?qry=Hadoop:service=HBase,*')).json();
    const next = {};
    for (const bean of jmx.beans) next[SUB_OF(bean.name)] = bean;
    beans = next;
    renderSummary();
    renderBlockCache();
    renderCurve();
    renderAbout(await (await fetch('/api/server')).json());
    renderTables(await (await fetch('/api/tables')).json());
    renderCharts(await (await fetch('/api/samples')).json());
    refreshes++;
    document.body.dataset.refreshes = String(refreshes);
    document.getElementById('updated').textContent = 'updated ' + clock(Date.now());
  } catch (e) {
    document.getElementById('updated').textContent = 'update failed: ' + e;
  }
}

function tabs(navId, attribute, panelClass) {
  const nav = document.getElementById(navId);
  nav.addEventListener('click', (event) => {
    const button = event.target.closest('button');
    if (!button) return;
    for (const other of nav.querySelectorAll('button')) other.classList.remove('active');
    button.classList.add('active');
    const target = button.dataset[attribute];
    const scope = nav.parentElement;
    for (const panel of scope.querySelectorAll(':scope > .' + panelClass)) {
      const id = panelClass === 'tab' ? 'tab-' + target : target;
      panel.classList.toggle('active', panel.id === id);
    }
  });
}

tabs('main-tabs', 'tab', 'tab');
tabs('cache-tabs', 'subtab', 'subtab');
refresh();
setInterval(refresh, REFRESH_MILLIS);
