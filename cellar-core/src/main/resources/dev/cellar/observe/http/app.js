// Cellar's info page: reads /jmx, /api/tables and /api/samples and renders the tabs; every
// figure cell carries data-metric="<sub>.<attribute>" naming the /jmx attribute it shows.
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

function human(bytes) {
  if (typeof bytes !== 'number') return '';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
  return value.toFixed(unit === 0 ? 0 : 1) + ' ' + units[unit];
}

function cell(sub, attribute) {
  const td = document.createElement('td');
  td.className = 'num';
  td.dataset.metric = sub + '.' + attribute;
  const value = (beans[sub] || {})[attribute];
  td.textContent = format(value);
  if (/Size|Bytes|Capacity/.test(attribute) && typeof value === 'number') td.title = human(value);
  return td;
}

function figures(tableId, sub, rows) {
  const table = document.getElementById(tableId);
  table.replaceChildren();
  for (const [label, attribute] of rows) {
    if (!(attribute in (beans[sub] || {}))) continue;
    const tr = document.createElement('tr');
    const th = document.createElement('th');
    th.textContent = label;
    tr.append(th, cell(sub, attribute));
    table.append(tr);
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

function renderSummary() {
  const server = beans[SERVER] || {};
  document.getElementById('server-name').textContent = server.serverName || '';
  figures('summary-table', SERVER, [
    ['Tables (regions)', 'regionCount'], ['Stores', 'storeCount'],
    ['Store files', 'storeFileCount'], ['Store file bytes', 'storeFileSize'],
    ['MemStore bytes', 'memStoreSize'], ['Read requests', 'readRequestCount'],
    ['Write requests', 'writeRequestCount'], ['Block cache hit %', 'blockCacheCountHitPercent'],
    ['Allocator heap ratio', 'ByteBuffAllocatorHeapAllocationRatio'],
    ['GC pauses > 1 s', 'pauseInfoThresholdExceeded'], ['Started (ms since epoch)', 'regionServerStartTime']]);
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
    for (const [label, attribute] of walRows) {
      const tr = document.createElement('tr');
      const th = document.createElement('th');
      th.textContent = label;
      tr.append(th, cell('WAL', attribute));
      table.append(tr);
    }
  }
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
  for (const tier of ['l1', 'l2']) {
    const prefix = tier + 'Cache';
    figures('cache-' + tier + '-table', SERVER, [
      ['Blocks', prefix + 'Count'], ['Size (bytes)', prefix + 'Size'],
      ['Free (bytes)', prefix + 'FreeSize'], ['Hits', prefix + 'HitCount'],
      ['Misses', prefix + 'MissCount'], ['Hit ratio', prefix + 'HitRatio'],
      ['Evicted blocks', prefix + 'EvictionCount']]);
    const detail = document.getElementById('cache-' + tier + '-table');
    for (const [word] of [['Implementation'], ['EvictionRunCount']]) {
      if (!((prefix + word) in (beans.CellarBlockCache || {}))) continue;
      const tr = document.createElement('tr');
      const th = document.createElement('th');
      th.textContent = word === 'Implementation' ? 'Implementation' : 'Eviction runs';
      tr.append(th, cell('CellarBlockCache', prefix + word));
      detail.append(tr);
    }
  }
  const detail = beans.CellarBlockCache || {};
  const l2 = document.getElementById('cache-l2-table');
  for (const [label, attribute] of [['Engine', 'bucketCacheIoEngine'],
    ['Capacity (bytes)', 'bucketCacheCapacity'], ['Used slot bytes', 'bucketCacheUsedSize'],
    ['Block bytes', 'bucketCacheRealSize'], ['Fragmentation (bytes)', 'bucketCacheFragmentationBytes'],
    ['Waiting for a writer', 'bucketCacheQueuedCount'],
    ['Checksum failures', 'bucketCacheChecksumFailures'], ['I/O errors', 'bucketCacheIoErrors']]) {
    if (!(attribute in detail)) continue;
    const tr = document.createElement('tr');
    const th = document.createElement('th');
    th.textContent = label;
    tr.append(th, cell('CellarBlockCache', attribute));
    l2.append(tr);
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
  const memory = beans.CellarMemory || {};
  const rows = Object.keys(memory).filter((name) => typeof memory[name] === 'number');
  figures('allocator-table', 'CellarMemory', rows.map((name) => [name, name]));
  const table = document.getElementById('allocator-table');
  for (const attribute of ['ByteBuffAllocatorHeapAllocationBytes',
    'ByteBuffAllocatorPoolAllocationBytes', 'ByteBuffAllocatorHeapAllocationRatio',
    'ByteBuffAllocatorTotalBufferCount', 'ByteBuffAllocatorUsedBufferCount']) {
    const tr = document.createElement('tr');
    const th = document.createElement('th');
    th.textContent = attribute;
    tr.append(th, cell(SERVER, attribute));
    table.append(tr);
  }
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
      axes: [{}, {size: 50}],
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

function chart(id, title, series, columns) {
  const element = document.getElementById(id);
  if (typeof uPlot === 'undefined') {
    element.textContent = title + ': chart library not loaded';
    return;
  }
  if (!charts[id]) {
    charts[id] = new uPlot({
      title, width: 500, height: 220,
      series: [{}, ...series.map((label, i) => ({label, stroke: ['#1f77b4', '#d62728', '#2ca02c'][i]}))],
      axes: [{}, {size: 70}],
    }, columns, element);
  } else {
    charts[id].setData(columns);
  }
}

function renderCharts(data) {
  const samples = data.samples;
  const time = samples.map((s) => s.timeMillis / 1000);
  const pick = (field) => samples.map((s) => s[field]);
  chart('chart-ops', 'Operations per second', ['gets', 'writes', 'scanned rows'],
    [time, pick('getsPerSecond'), pick('writesPerSecond'), pick('scanRowsPerSecond')]);
  chart('chart-p99', 'p99 latency (µs)', ['get', 'write'],
    [time, pick('getP99Micros'), pick('writeP99Micros')]);
  chart('chart-hits', 'Hit ratio per tier', ['L1', 'L2'],
    [time, pick('l1HitRatio'), pick('l2HitRatio')]);
  chart('chart-evictions', 'Evicted blocks per sample', ['L1', 'L2'],
    [time, pick('l1Evictions'), pick('l2Evictions')]);
  chart('chart-memory', 'Memory (bytes)', ['heap used', 'off-heap held'],
    [time, pick('heapUsedBytes'), pick('offHeapBytes')]);
  chart('chart-gc', 'GC pause time per sample (ms)', ['pauses'], [time, pick('gcPauseMillis')]);
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
    renderTables(await (await fetch('/api/tables')).json());
    renderCharts(await (await fetch('/api/samples')).json());
    refreshes++;
    document.body.dataset.refreshes = String(refreshes);
    document.getElementById('updated').textContent = 'updated ' + new Date().toLocaleTimeString();
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
