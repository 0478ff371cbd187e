// xenotrace inspect: the page of a static site opened from file://. Data arrive as scripts that
// call the XNT.* functions below (browsers refuse fetch() on file://): data/events.js (a small
// index), data/list/lN.js (1,024 rows of the event list each, loaded when in view, all of them
// for a filter), data/chunks/cN.js (64 events' details each, loaded on demand), data/shaders/H.js,
// data/bits/*.js (guest bits of small targets), history/fF/*.js (pixel history, when written).
'use strict';
var XNT = (function () {
  var ROW = 20;
  var S = {index: null, events: [], byId: {}, view: [], sel: -1, chunks: {}, shaders: {}, bits: {},
           history: {}, historyIndex: {}, loading: {}, failed: {}, pick: null, lists: 0,
           pendingId: null, pendingIndex: -1, loaded: {}};
  var errors = [];
  function $(id) { return document.getElementById(id); }
  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) {
      return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}[c];
    });
  }
  function status() {
    var st = $('xnt-status');
    if (!st) return;
    st.textContent = errors.length ? 'errors: ' + errors.join('; ') : 'ok';
    // Milliseconds from navigation to the last status update (the page's own load figure).
    st.dataset.ms = Math.round(performance.now());
  }
  function fail(msg) { errors.push(msg); status(); }
  window.addEventListener('error', function (e) { fail(e.message); });
  function load(src, onerror) {
    if (S.loading[src]) return;
    S.loading[src] = true;
    var s = document.createElement('script');
    s.src = src;
    s.onerror = function () { S.failed[src] = true; if (onerror) onerror(); };
    document.head.appendChild(s);
  }
  function table(head, rows, cls) {
    var h = '<table class="t"><tr>' + head.map(function (x) { return '<th>' + esc(x) + '</th>'; }).join('') + '</tr>';
    rows.forEach(function (r, i) {
      h += '<tr' + (cls && cls[i] ? ' class="' + cls[i] + '"' : '') + '>' +
        r.map(function (x) { return '<td>' + (x && x.html ? x.html : esc(x)) + '</td>'; }).join('') + '</tr>';
    });
    return h + '</table>';
  }
  function link(id) { return {html: '<a href="#' + esc(id) + '">' + esc(id) + '</a>'}; }

  // ---- Event list (only the visible rows are in the DOM: a frame may hold 20,000 events) ------
  function rowText(e) {
    var t = '<span class="k-' + e.kind + '">' + esc(e.id) + ' ' + e.kind + '</span>';
    if (e.kind !== 'swap') t += ' ' + esc(e.prim) + ' ' + e.count;
    if (e.vs) t += ' vs ' + e.vs.slice(0, 8);
    if (e.ps) t += ' ps ' + e.ps.slice(0, 8);
    if (e.targets && e.targets.length) t += ' &rarr; ' + esc(e.targets.map(function (x) { return x.split(' ')[0] + ' ' + x.split(' ')[1]; }).join(', '));
    if (e.notes) t += ' <span class="note">&#9888; ' + esc(e.notes.join('; ')) + '</span>';
    return t;
  }
  function drawRows() {
    var list = $('list'), rows = $('rows');
    rows.style.height = S.view.length * ROW + 'px';
    var first = Math.max(0, Math.floor(list.scrollTop / ROW) - 5);
    var last = Math.min(S.view.length, first + Math.ceil(list.clientHeight / ROW) + 10);
    var h = '';
    for (var v = first; v < last; ++v) {
      var i = S.view[v], e = S.events[i];
      if (!e) {
        loadList(Math.floor(i / S.index.list_events));
        h += '<div class="row" style="top:' + v * ROW + 'px">&hellip;</div>';
        continue;
      }
      h += '<div class="row' + (i === S.sel ? ' sel' : '') + '" style="top:' + v * ROW + 'px" data-i="' + i +
        '" title="' + esc(e.id) + '">' + rowText(e) + '</div>';
    }
    rows.innerHTML = h;
  }
  function matches(e, f) {
    if (!f) return true;
    return f.split(/\s+/).every(function (term) {
      var m = /^(reg|target|shader):(.*)$/.exec(term);
      if (!m) return (e.id + ' ' + e.kind + ' ' + (e.prim || '') + ' ' + (e.notes || []).join(' ')).toLowerCase().indexOf(term.toLowerCase()) >= 0;
      var v = m[2].toLowerCase();
      if (m[1] === 'reg') {
        return (e.changed || []).some(function (r) { return (S.index.registers[r] || '').toLowerCase().indexOf(v) >= 0; });
      }
      if (m[1] === 'target') return (e.targets || []).some(function (t) { return t.toLowerCase().indexOf(v) >= 0; });
      return (e.vs || '').indexOf(v) === 0 || (e.ps || '').indexOf(v) === 0;
    });
  }
  // The list chunk holding rows from i * list_events on, once.
  function loadList(n) {
    load('data/list/l' + n + '.js', function () { fail('data/list/l' + n + '.js missing'); });
  }
  // "F.K" / "F.swap" as [F, K] (the swap after every K of its frame), to find an id's list chunk.
  function idKey(id) {
    var p = String(id).split('.');
    return [Number(p[0]), p[1] === 'swap' ? Infinity : Number(p[1])];
  }
  function idLess(a, b) { return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]); }
  function listOf(id) {
    var k = idKey(id), lists = S.index.lists || [];
    for (var n = 0; n < lists.length; ++n) {
      if (!idLess(k, idKey(lists[n][0])) && !idLess(idKey(lists[n][1]), k)) return n;
    }
    return -1;
  }
  function applyFilter() {
    var f = $('filter').value.trim(), lists = (S.index.lists || []).length;
    S.view = [];
    if (!f) {
      for (var i = 0; i < S.events.length; ++i) S.view.push(i);
    } else {
      // A filter reads every row: every list chunk is loaded, each re-running the filter.
      for (var n = 0; n < lists; ++n) loadList(n);
      for (var j = 0; j < S.events.length; ++j) if (S.events[j] && matches(S.events[j], f)) S.view.push(j);
    }
    $('count').textContent = S.view.length + ' of ' + S.events.length + ' events' +
      (f && S.lists < lists ? ' (searching: ' + S.lists + ' of ' + lists + ' list chunks read)' : '');
    drawRows();
  }
  function select(i) {
    if (i < 0 || i >= S.events.length) return;
    if (!S.events[i]) {
      // Its row is not read yet: select it when its list chunk arrives.
      S.pendingIndex = i;
      loadList(Math.floor(i / S.index.list_events));
      return;
    }
    S.sel = i;
    var id = S.events[i].id;
    if (location.hash.split('@')[0] !== '#' + id) history.replaceState(null, '', '#' + id);
    var v = S.view.indexOf(i), list = $('list');
    if (v >= 0 && (v * ROW < list.scrollTop || (v + 1) * ROW > list.scrollTop + list.clientHeight)) {
      list.scrollTop = Math.max(0, v * ROW - list.clientHeight / 2);
    }
    drawRows();
    renderDetail();
  }
  function step(d) {
    var v = S.view.indexOf(S.sel);
    if (v < 0) v = d > 0 ? -1 : S.view.length;
    v += d;
    if (v >= 0 && v < S.view.length) select(S.view[v]);
  }
  // #F.K selects an event; #F.K@X,Y also picks host pixel (X, Y) of its first "after" target (or
  // of the front buffer of F.swap), as a click would.
  function fromHash() {
    var hash = decodeURIComponent(location.hash.slice(1)), at = hash.indexOf('@');
    var id = at < 0 ? hash : hash.slice(0, at);
    S.hashPick = at < 0 ? null : hash.slice(at + 1).split(',').map(Number);
    if (id && S.byId[id] !== undefined) select(S.byId[id]);
    else if (id && listOf(id) >= 0 && !S.failed['data/list/l' + listOf(id) + '.js'] &&
             !S.loaded[listOf(id)]) {
      S.pendingId = id;
      loadList(listOf(id));
      $('detail').innerHTML = '<p>loading ' + esc(id) + '&hellip;</p>';
    } else if (id) $('detail').innerHTML = '<p class="err">No event ' + esc(id) + ' in this site (events are F.K).</p>';
  }

  // ---- Detail ----------------------------------------------------------------------------------
  function chunkOf(e) {
    var c = S.chunks[e.chunk];
    if (!c) {
      $('detail').innerHTML = '<p>loading ' + esc(e.id) + '&hellip;</p>';
      load('data/chunks/c' + e.chunk + '.js', function () { fail('data/chunks/c' + e.chunk + '.js missing'); });
    }
    return c;
  }
  // The named registers at event e: the chunk's starting state, then every change up to e.
  function stateAt(c, e) {
    var regs = {};
    c.base.forEach(function (r) { regs[r[0]] = {r: r, changed: false}; });
    for (var id in c.events) {
      var d = c.events[id];
      (d.changes || []).forEach(function (r) { regs[r[0]] = {r: r, changed: id === e.id}; });
      if (id === e.id) break;
    }
    var blocks = {};
    Object.keys(regs).map(Number).sort(function (a, b) { return a - b; }).forEach(function (k) {
      var r = regs[k].r, b = r[1].split('_')[0];
      (blocks[b] = blocks[b] || []).push(regs[k]);
    });
    var h = '';
    Object.keys(blocks).sort().forEach(function (b) {
      var rs = blocks[b], n = rs.filter(function (x) { return x.changed; }).length;
      h += '<details' + (n ? ' open' : '') + '><summary>' + esc(b) + '_ (' + rs.length + ' registers' +
        (n ? ', ' + n + ' changed' : '') + ')</summary>' +
        table(['register', 'value', 'fields'], rs.map(function (x) { return [x.r[1], x.r[2], x.r[3]]; }),
              rs.map(function (x) { return x.changed ? 'changed' : ''; })) + '</details>';
    });
    return h;
  }
  function constants(k) {
    if (!k || !k.float) return '';
    var h = '';
    if (k.float.length) h += table(['c#', 'x', 'y', 'z', 'w'], k.float.map(function (r) { return ['c' + r[0], r[1], r[2], r[3], r[4]]; }));
    if (k.relative) h += '<p class="warn">' + esc(k.relative) + '</p>';
    if (k.bool.length) h += table(['bool', 'value'], k.bool.map(function (r) { return ['b' + r[0], r[1]]; }));
    if (k.loop.length) h += table(['loop', 'count', 'start', 'step'], k.loop.map(function (r) { return ['i' + r[0], r[1], r[2], r[3]]; }));
    return h || '<p class="help">reads no constants</p>';
  }
  function shader(which, hash, k) {
    var s = S.shaders[hash];
    if (!s) load('data/shaders/' + hash + '.js');
    var h = '<h3>' + which + ' ' + esc(hash) + '</h3>';
    if (!s) return h + '<p>loading&hellip;</p>';
    if (s.error) h += '<p class="err">' + esc(s.error) + '</p>';
    h += '<details open><summary>listing (' + s.dwords + ' dwords)</summary><pre class="listing">' + esc(s.listing || '') + '</pre></details>';
    h += '<details><summary>translation (' + esc(S.index.path) + (s.spirv_words ? ', ' + s.spirv_words + ' SPIR-V words' : '') +
      ')</summary><pre class="glsl">' + esc(s.glsl || '') + '</pre></details>';
    return h + '<h3>constants read</h3>' + constants(k);
  }
  function fetches(d) {
    var h = '';
    (d.vertex_fetch || []).forEach(function (f) {
      h += '<h3>vfetch slot ' + f.slot + ': fetch constant ' + f.constant + ' at ' + f.address + ' (' + f.size_bytes +
        ' bytes, ' + esc(f.endian) + '), format ' + f.format + ', offset ' + f.offset_dwords + ', stride ' + f.stride_dwords +
        ' dwords' + (f.signed ? ', signed' : '') + (f.normalized ? ', normalized' : ', integer') + '</h3>';
      if (f.error) h += '<p class="err">' + esc(f.error) + '</p>';
      h += table(['index', 'dwords (swapped)', 'decoded'], f.vertices.map(function (v) { return [v[0], v[1].join(' '), v[2].join(', ')]; }));
    });
    var ix = d.indices;
    if (ix) {
      h += '<h3>indices: ' + ix.source + ', ' + ix.format + (ix.address ? ' at ' + ix.address + ' (' + ix.size_bytes + ' bytes, ' + esc(ix.endian) + ')' : '') +
        '</h3><p class="pick">first, after offset and clamp: ' + esc((ix.indices || []).join(' ')) + '</p>';
      if (ix.error) h += '<p class="err">' + esc(ix.error) + '</p>';
    }
    return h;
  }
  function textures(list) {
    if (!list || !list.length) return '<p class="help">no texture fetch constants used</p>';
    return list.map(function (t) {
      var h = '<h3>tf' + t.slot + ': ' + esc(t.format) + ' ' + t.size.join('x') + (t.tiled ? ' tiled' : ' linear') +
        ' at ' + t.address + ', ' + esc(t.endian) + ', mips ' + t.mips.join('-') + ' (mip address ' + t.mip_address +
        (t.packed_mips ? ', packed' : '') + '), clamp ' + t.clamp.join('/') + ', filter ' + t.filter.join('/') + '</h3>';
      if (t.error) h += '<p class="err">' + esc(t.error) + '</p>';
      if (t.inexact) h += '<p class="warn">' + esc(t.inexact) + '</p>';
      h += '<div class="thumbs">' + (t.levels || []).map(function (l) {
        return '<figure>' + (l.image ? '<img class="px tex" src="' + l.image + '" data-level="' + l.level + '">' :
          '<span class="warn">' + esc(l.error || 'not written (image budget)') + '</span>') +
          '<figcaption>level ' + l.level + ' ' + l.size.join('x') + (l.step > 1 ? ' (every ' + l.step + 'th texel)' : '') + '</figcaption></figure>';
      }).join('') + '</div>';
      return h;
    }).join('');
  }
  function targets(list, when, frame) {
    if (!list) return '<p class="help">' + when + ': images not written for this event (not selected or over the image budget; ' +
      'run <code>' + esc(S.index.command) + ' --events ' + esc(S.events[S.sel].id) + '</code>)</p>';
    if (!list.length) return '<p class="help">' + when + ': writes no target</p>';
    return '<div class="thumbs">' + list.map(function (t) {
      return '<figure>' + (t.image ? '<img class="px target" src="' + t.image + '" data-target="' + esc(t.history_target || t.name) + '" data-frame="' + frame +
        '" data-bits="' + esc(t.bits || '') + '" data-key="' + esc(t.bits ? t.bits.replace(/^data\/bits\//, '').replace(/\.js$/, '') : '') +
        '" style="width:' + Math.min(512, Math.max(64, t.size[0] * 2)) + 'px">' : '<span class="warn">over the image budget</span>') +
        '<figcaption>' + when + ' ' + esc(t.describe) + (t.false_colour ? '<br>' + esc(t.false_colour) : '') + '</figcaption></figure>';
    }).join('') + '</div>';
  }
  function renderDetail() {
    var e = S.events[S.sel];
    if (!e) return;
    var c = chunkOf(e);
    if (!c) return;
    var d = c.events[e.id], frame = e.id.split('.')[0];
    var h = '<h2 id="event-title">' + esc(e.id) + ' ' + e.kind + (e.prim ? ' ' + esc(e.prim) + ' ' + e.count : '') + '</h2>';
    if (e.notes) h += '<p class="warn">' + esc(e.notes.join('; ')) + '</p>';
    if (e.kind === 'swap') {
      h += '<h2>front buffer</h2>' + (d.front_buffer ? '<img class="px target" src="' + d.front_buffer + '" data-target="frame" data-frame="' + frame + '">' : '');
      h += '<div id="picker" class="pick"></div><div id="history"></div>';
    } else {
      h += '<h2>targets</h2>' + targets(d.before, 'before', frame) + targets(d.after, 'after', frame);
      h += '<div id="picker" class="pick"></div><div id="history"></div>';
      if (d.transfers && d.transfers.length) {
        h += '<h2>EDRAM ownership transfers</h2>' + table(['#', 'tiles', 'bytes', 'from', 'to', 'reason'], d.transfers.map(function (t) {
          return [{html: S.index.transfers ? '<a href="' + S.index.transfers + '#row' + t[0] + '">' + t[0] + '</a>' : t[0]},
                  '[' + t[1] + ', ' + t[2] + ')', t[3], t[4], t[5], t[6]];
        }));
      }
      h += '<h2>state</h2><div id="state">' + stateAt(c, e) + '</div>';
      h += '<h2>shaders</h2>' + (e.vs ? shader('vertex shader', e.vs, d.vs_constants) : '') + (e.ps ? shader('pixel shader', e.ps, d.ps_constants) : '');
      if (e.kind === 'draw') h += '<h2>vertex and index fetch</h2>' + fetches(d) + '<h2>textures</h2>' + textures(d.textures);
    }
    h += '<h2>PM4 packets</h2><pre id="packets">' + esc(d.packets || '') + '</pre>';
    $('detail').innerHTML = h;
    if (S.hashPick) {
      var imgs = document.querySelectorAll('#detail img.target'), img = imgs[imgs.length - 1];
      for (var i = 0; i < imgs.length; ++i) if (imgs[i].dataset.key) { img = imgs[i]; break; }
      var xy = S.hashPick;
      S.hashPick = null;
      if (img) pickAt(img, xy[0], xy[1]);
      else pickPixel({frame: frame}, xy[0], xy[1]);
    } else if (S.pick && S.pick.event === e.id) {
      showPick();  // drawn again (a shader or chunk arrived): the pick stays
    }
    status();
  }

  // ---- Value picker and pixel history -----------------------------------------------------------
  function onPick(img, ev) {
    var r = img.getBoundingClientRect();
    pickAt(img, Math.floor((ev.clientX - r.left) * img.naturalWidth / r.width),
           Math.floor((ev.clientY - r.top) * img.naturalHeight / r.height));
  }
  function pickAt(img, x, y) {
    pickPixel(img.dataset, x, y);
  }
  // `on`: the picked image's data (target, frame, bits), or only the frame for a deep link to an
  // event written without images (over the image budget): the pixel history is the frame's, in
  // its own chunks, so it is listed all the same, for every target that holds the pixel.
  function pickPixel(on, x, y) {
    // Images are in host pixels (S x T per guest pixel at a resolution scale); history is by guest pixel.
    var sc = (S.index.scale || '1x1').split('x').map(Number);
    S.pick = {x: x, y: y, key: on.key, target: on.target, frame: on.frame, event: S.events[S.sel].id,
              gx: Math.floor(x / sc[0]), gy: Math.floor(y / sc[1])};
    if (on.bits) load(on.bits);
    showPick();
  }
  function showPick() {
    var p = S.pick, el = $('picker');
    if (!p) return;
    var h = (p.target || 'frame ' + p.frame) + ' pixel (' + p.x + ', ' + p.y + ')' + (p.gx !== p.x || p.gy !== p.y ? ' = guest (' + p.gx + ', ' + p.gy + ')' : '') +
      (p.target ? '' : ' (this event has no images: no guest bits; the history of every target)');
    var b = p.key && S.bits[p.key];
    if (b) h += ' guest bits 0x' + b.hex.substr((p.y * b.width + p.x) * b.digits, b.digits);
    else if (p.key) h += ' (guest bits loading)';
    if (el) el.textContent = h;
    showHistory();
  }
  // The index's command for this pixel and target, at the site's scale: what writes a tile left out.
  function historyCommand(idx, p) {
    var c = (idx.command || '').replace('X,Y', p.gx + ',' + p.gy)
      .replace(' [--target ID]', p.target && p.target !== 'frame' ? ' --target ' + p.target : '');
    return c + (S.index.scale && S.index.scale !== '1x1' ? ' --scale ' + S.index.scale : '');
  }
  // A pixel's entries from a tile's compact tables (docs/pixel-history.md): the run holding the
  // pixel lists its entries; each is [key list, event, kind, field values...], every one but the
  // key list an index into the tile's values. "host pixel" is stored relative to the guest
  // pixel's first host pixel (flat regions share entries at a scale).
  function historyEntries(t, tile, p) {
    var q = (p.gy % tile) * tile + p.gx % tile, sc = (S.index.scale || '1x1').split('x').map(Number);
    var run = (t.runs || []).find(function (r) { return q >= r[0] && q < r[0] + r[1]; });
    return (run ? run[2] : []).map(function (i) {
      var en = t.entries[i], o = {event: t.values[en[1]], kind: t.values[en[2]]};
      t.keys[en[0]].forEach(function (k, j) {
        var v = t.values[en[3 + j]];
        if (k === 'host pixel') {
          var d = v.split(',').map(Number);
          v = (p.gx * sc[0] + d[0]) + ',' + (p.gy * sc[1] + d[1]);
        }
        o[k] = v;
      });
      return o;
    });
  }
  function showHistory() {
    var p = S.pick, el = $('history');
    if (!p || !el) return;
    var f = p.frame, idx = S.historyIndex[f];
    var src = 'history/f' + f + '/index.js';
    if (!idx) {
      if (S.failed[src]) { el.innerHTML = '<h2>pixel history</h2><p class="help">pixel history: not written</p>'; return; }
      load(src, showHistory);
      el.innerHTML = '<h2>pixel history</h2><p>loading&hellip;</p>';
      return;
    }
    var tx = Math.floor(p.gx / idx.tile), ty = Math.floor(p.gy / idx.tile);
    var written = (idx.tiles || []).some(function (t) { return t[0] === tx && t[1] === ty; });
    if (!written) {
      el.innerHTML = '<h2>pixel history</h2><p class="warn">tile ' + tx + ',' + ty + ' not written' +
        (idx.skipped ? ': ' + esc(idx.skipped) : '') + (idx.command ? '; this pixel: <code>' + esc(historyCommand(idx, p)) + '</code>' : '') + '</p>';
      return;
    }
    var tiles = S.history[f + ':' + tx + '_' + ty];
    if (!tiles) { load('history/f' + f + '/t' + tx + '_' + ty + '.js'); el.innerHTML = '<h2>pixel history</h2><p>loading&hellip;</p>'; return; }
    // The writer replays the cpu path (the exact reference) whatever path and scale the site shows.
    var h = '<h2>pixel history (' + p.gx + ', ' + p.gy + ')</h2><p class="help">from the cpu path at ' + esc(S.index.scale) +
      ' (the reference), whatever path this site shows; also <code>' + esc(historyCommand(idx, p)) + '</code></p>';
    tiles.forEach(function (t) {
      if (t.target !== p.target && tiles.length > 1 && tiles.some(function (u) { return u.target === p.target; })) return;
      var entries = historyEntries(t, idx.tile, p);
      h += '<h3>' + esc(t.target) + ': ' + entries.length + ' entries</h3>';
      entries.forEach(function (en) {
        h += table(['field', 'value'], Object.keys(en).map(function (k) {
          return [k, k === 'event' ? link(en[k]) : (typeof en[k] === 'object' ? JSON.stringify(en[k]) : en[k])];
        }));
      });
    });
    el.innerHTML = h;
  }

  // ---- Entry points called by the data scripts ---------------------------------------------------
  var api = {
    fail: fail,
    events: function (index) {
      S.index = index;
      S.events = new Array(index.count);
      S.loaded = {};
      var ready = function () {
        $('title').textContent = 'xenotrace inspect: ' + index.trace;
        $('meta').textContent = index.path + ' @ ' + index.scale + ', frames ' + index.frames.join(',') + ' of ' + index.frames_in_trace +
          (index.transfers ? ' ' : '');
        if (index.transfers) $('meta').insertAdjacentHTML('beforeend', '<a href="' + index.transfers + '">ownership map</a>');
        applyFilter();
        if (location.hash) fromHash(); else if (S.events.length) select(0);
        status();
      };
      if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', ready); else ready();
    },
    list: function (c) {
      if (S.loaded[c.chunk]) return;
      S.loaded[c.chunk] = true;
      ++S.lists;
      c.events.forEach(function (e, k) { S.events[c.first + k] = e; S.byId[e.id] = c.first + k; });
      if ($('filter').value.trim()) applyFilter(); else drawRows();
      if (S.pendingId !== null && listOf(S.pendingId) === c.chunk) {
        var id = S.pendingId;
        S.pendingId = null;
        if (S.byId[id] !== undefined) select(S.byId[id]);
        else $('detail').innerHTML = '<p class="err">No event ' + esc(id) + ' in this site (events are F.K).</p>';
      }
      if (S.pendingIndex >= 0 && S.events[S.pendingIndex]) {
        var i = S.pendingIndex;
        S.pendingIndex = -1;
        select(i);
      }
    },
    chunk: function (c) {
      S.chunks[c.chunk] = c;
      if (S.sel >= 0 && S.events[S.sel].chunk === c.chunk) renderDetail();
    },
    shader: function (s) {
      S.shaders[s.hash] = s;
      var e = S.events[S.sel];
      if (e && (e.vs === s.hash || e.ps === s.hash)) renderDetail();
    },
    bits: function (b) { S.bits[b.key] = b; showPick(); },
    historyIndex: function (idx) { S.historyIndex[idx.frame] = idx; showHistory(); },
    history: function (t) {
      var k = t.frame + ':' + t.tile[0] + '_' + t.tile[1];
      (S.history[k] = S.history[k] || []).push(t);
      showHistory();
    },
  };
  document.addEventListener('DOMContentLoaded', function () {
    $('list').addEventListener('scroll', drawRows);
    $('rows').addEventListener('click', function (ev) {
      var row = ev.target.closest('.row');
      if (row) select(Number(row.dataset.i));
    });
    $('filter').addEventListener('input', applyFilter);
    $('detail').addEventListener('click', function (ev) {
      if (ev.target.classList && ev.target.classList.contains('target')) onPick(ev.target, ev);
    });
    window.addEventListener('hashchange', fromHash);
    document.addEventListener('keydown', function (ev) {
      if (ev.target.tagName === 'INPUT') { if (ev.key === 'Escape') ev.target.blur(); return; }
      if (ev.key === 'j' || ev.key === 'ArrowDown') { step(1); ev.preventDefault(); }
      else if (ev.key === 'k' || ev.key === 'ArrowUp') { step(-1); ev.preventDefault(); }
      else if (ev.key === '/') { $('filter').focus(); ev.preventDefault(); }
      else if (ev.key === 'g') {
        var id = prompt('Jump to event F.K');
        if (id) location.hash = '#' + id.trim();
      }
    });
    status();
  });
  return api;
})();
