// page.js: the report page's own CSS and script (formats/report_html.js
// puts both into the page as text). The script runs in the page, never
// here: it reads the data (formats/report/data.js) from the page's
// <script type="application/json"> and draws the charts with uPlot.
// Pure; the rules of formats/README.md.
'use strict';

// The page's own CSS: plain, readable at 1280x900, system fonts only (the
// page loads nothing). (No line starts with "#": formats/README.md.)
var CSS = [
  'body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222; background: #fff;',
  '  margin: 0 auto; padding: 12px 24px 40px; max-width: 1240px; }',
  'h1 { font-size: 20px; margin: 4px 0 10px; } h1 .file { font-family: ui-monospace, Menlo, Consolas, monospace; }',
  'h2 { font-size: 17px; margin: 26px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 3px; }',
  'h3 { font-size: 15px; margin: 18px 0 6px; }',
  'table { border-collapse: collapse; }',
  'table.facts th { text-align: left; font-weight: 600; padding: 1px 14px 1px 0; vertical-align: top; white-space: nowrap; }',
  'table.facts td { padding: 1px 0; } .mode-note { white-space: pre-wrap; }',
  '.chart { min-height: 120px; } .caption { color: #555; font-size: 13px; margin: 6px 0; }',
  '.missing { background: #f6f6f6; border-left: 3px solid #bbb; padding: 8px 12px; }',
  '.peak-window { color: #b3261e; margin: 4px 0; }',
  'pre.growths { font-size: 12px; white-space: pre-wrap; background: #f8f8f8; padding: 8px; }',
  'table.sites, table.parts { width: 100%; font-size: 13px; }',
  'table.sites th, table.parts th { text-align: left; border-bottom: 2px solid #ccc; padding: 3px 8px; white-space: nowrap; }',
  'table.sites td, table.parts td { border-bottom: 1px solid #eee; padding: 3px 8px; vertical-align: top; }',
  'td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }',
  'td.site { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; max-width: 260px; overflow-wrap: anywhere; }',
  'td.stack { font-size: 12px; color: #333; overflow-wrap: anywhere; }',
  'td.why { color: #666; font-size: 12px; } tr.total td { font-weight: 600; border-top: 2px solid #ccc; }',
  '.err { color: #8a5a00; font-size: 11px; }',
  'tr.charted { cursor: pointer; } tr.charted:hover { background: #f4f7fb; }',
  'tr.focused, tr:target { background: #fff3c4 !important; }',
  '.swatch { display: inline-block; width: 10px; height: 10px; margin-right: 6px; vertical-align: baseline; border-radius: 2px; }',
  '.bar { display: flex; height: 22px; border: 1px solid #bbb; margin: 8px 0; }',
  '.bar .part { display: block; height: 100%; min-width: 1px; }',
  '.part-0 { background: #9c755f; } .part-1 { background: #4e79a7; } .part-2 { background: #b07aa1; }',
  '.part-3 { background: #e15759; } .part-4 { background: #8cd17d; } .part-5 { background: #59a14f; }',
  '.part-6 { background: #e8e8e8; }',
  '.verdict { white-space: nowrap; } .v-grows-without-bound { color: #b3261e; font-weight: 600; }',
  '.v-levels-off { color: #2e7d32; }',
  '.uplot .mark-label { position: absolute; top: 0; font-size: 11px; color: #444; background: rgba(255,255,255,.85);',
  '  padding: 0 3px; white-space: nowrap; pointer-events: none; border-left: 1px dashed #777; }',
  '.uplot .growth-marker { position: absolute; bottom: 0; font-size: 12px; color: #e07b00; transform: translateX(-50%);',
  '  line-height: 1; cursor: help; }',
  '.uplot .peak-label { position: absolute; right: 4px; font-size: 11px; color: #b3261e; background: rgba(255,255,255,.85);',
  '  padding: 0 3px; pointer-events: none; }',
  '.sites-chart .u-legend.u-inline tr { display: block; text-align: left; margin: 0; }',
  '.sites-chart .u-legend { text-align: left; font-size: 12px; margin: 4px 0 0 0; }',
  '.sites-chart .u-legend a { color: inherit; }',
  '.sites-chart .u-legend tr.focused { background: #fff3c4; font-weight: 600; }',
  'footer { margin-top: 30px; color: #777; font-size: 12px; }',
].join('\n');

// The page's script, put into the page as its source text (never called
// here). Arguments: the document, uPlot, model/numbers.js's formatBytes
// and formatCount (also as their text: one way to say a number), and
// model/ranges.js's startMarkAt and endMarkAfter (one rule for a range).
function pageScript(d, uPlot, formatBytes, formatCount, startMarkAt, endMarkAfter) {
  var data = JSON.parse(d.getElementById('report-data').textContent);
  var charts = [];
  var pxr = function () { return uPlot.pxRatio || 1; };
  var widthOf = function (el) { return Math.max(480, el.clientWidth || 1180); };
  // binary steps (1, 2, 4 ... KiB, MiB) so that ticks read "4 MiB", not "4.77 MiB"
  var incrs = [];
  for (var p = 0; p <= 40; p += 10) for (var m = 1; m < 1024; m *= 2) incrs.push(m * Math.pow(2, p));
  var bytesTick = function (u, vals) { return vals.map(function (v) { return formatBytes(v).replace('.00 ', ' '); }); };
  var secondsTick = function (u, vals) { return vals.map(function (v) { return +v.toFixed(3) + ' s'; }); };
  // A vertical axis as wide as the widest tick label it draws, measured in
  // its own font: a fixed width cuts the first digits of "457.22 MiB/s" on
  // the left, the last of "600,000" on the right, both past the canvas.
  // uPlot calls size() on each pass of its layout with that pass's labels
  // (on the first with none). Width: the tick, the gap, the label, and
  // AXIS_EDGE px to the canvas's edge. The charts share one time axis
  // (their cursors move together): each side is as wide as the widest of
  // any chart's on that side (`sides`, the charts laid out again once all
  // are made), and a chart without a right axis leaves that much room, so
  // that a moment is at one x in every chart.
  var AXIS_EDGE = 4;
  var sides = {left: 0, right: 0};
  var sideOf = function (axis) { return axis.side === 1 ? 'right' : 'left'; };
  var axisWidth = function (u, values, axisIdx) {
    var own = labelWidth(u, values, axisIdx);
    var side = sideOf(u.axes[axisIdx]);
    sides[side] = Math.max(sides[side], own);
    return sides[side];
  };
  // no right axis: the room the widest right axis takes, or uPlot's own
  // padding (half a default axis) for the time axis's last label
  var RIGHT_PAD = 25;
  var rightPadding = function (u, side, sidesWithAxes) { return sidesWithAxes[1] ? 0 : Math.max(sides.right, RIGHT_PAD); };
  var padding = [null, rightPadding, null, null];
  var labelWidth = function (u, values, axisIdx) {
    var axis = u.axes[axisIdx];
    var widest = 0;
    if (values) {
      var ctx = u.ctx;
      ctx.save(); // uPlot remembers the font it set last: leave the context as it was
      ctx.font = axis.font[0];
      values.forEach(function (v) {
        if (v === null || v === undefined) return;
        String(v).split('\n').forEach(function (line) { widest = Math.max(widest, ctx.measureText(line).width); });
      });
      ctx.restore();
      widest *= axis.font[2] / axis.font[1]; // axis.font: [font, its px on the canvas, its CSS px]
    }
    return (axis.ticks.show ? axis.ticks.size : 0) + axis.gap + Math.ceil(widest) + AXIS_EDGE;
  };
  var yAxis = {values: bytesTick, incrs: incrs, size: axisWidth};
  var exact = function (v) { return v === null || v === undefined ? '--' : formatBytes(v) + ' (' + formatCount(v) + ' B)'; };

  function xScale(range) {
    return {time: false, range: function (u, min, max) {
      return [Math.min(min, range.xMin), Math.max(max, range.xMax, range.xMin + 0.001)];
    }};
  }

  // Marks, growths and the peak: lines on the canvas (hooks.draw runs
  // after the series, with u.valToPos for the coordinates), labels as
  // elements over the plot so that they stay sharp and readable as text.
  function annotations(L) {
    return {hooks: {draw: [function (u) {
      var ctx = u.ctx;
      var box = u.bbox;
      var r = pxr();
      ctx.save();
      if (L.peak && L.peak.from !== null && L.peak.to !== null) {
        var x0 = u.valToPos(L.peak.from, 'x', true);
        var x1 = u.valToPos(L.peak.to, 'x', true);
        ctx.fillStyle = 'rgba(225, 87, 89, 0.16)';
        ctx.fillRect(x0, box.top, Math.max(x1 - x0, 2 * r), box.height);
      }
      ctx.lineWidth = r;
      ctx.setLineDash([4 * r, 4 * r]);
      ctx.strokeStyle = '#777';
      L.marks.forEach(function (mk) {
        var x = Math.round(u.valToPos(mk.t, 'x', true));
        ctx.beginPath();
        ctx.moveTo(x, box.top);
        ctx.lineTo(x, box.top + box.height);
        ctx.stroke();
      });
      if (L.peak) {
        var y = Math.round(u.valToPos(L.peak.bytes, 'y', true));
        ctx.strokeStyle = '#d62728';
        ctx.lineWidth = 1.5 * r;
        ctx.beginPath();
        ctx.moveTo(box.left, y);
        ctx.lineTo(box.left + box.width, y);
        ctx.stroke();
      }
      ctx.setLineDash([]);
      ctx.fillStyle = '#f28e2b';
      L.growths.forEach(function (g) {
        var x = u.valToPos(g.t, 'x', true);
        var yb = box.top + box.height;
        ctx.beginPath();
        ctx.moveTo(x - 5 * r, yb);
        ctx.lineTo(x + 5 * r, yb);
        ctx.lineTo(x, yb - 9 * r);
        ctx.closePath();
        ctx.fill();
      });
      ctx.restore();
      placeLabels(u, L);
    }]}};
  }

  function placeLabels(u, L) {
    var layer = u.over.querySelector('.labels');
    if (!layer) {
      layer = d.createElement('div');
      layer.className = 'labels';
      u.over.appendChild(layer);
    }
    layer.textContent = '';
    L.marks.forEach(function (mk, i) {
      var el = d.createElement('div');
      el.className = 'mark-label';
      el.textContent = mk.label;
      el.title = mk.title;
      el.style.left = u.valToPos(mk.t, 'x') + 'px';
      el.style.top = (i % 3) * 16 + 'px'; // marks close together do not cover each other
      layer.appendChild(el);
    });
    L.growths.forEach(function (g) {
      var el = d.createElement('div');
      el.className = 'growth-marker';
      el.textContent = '\u00a0';
      el.title = g.title;
      el.style.left = u.valToPos(g.t, 'x') + 'px';
      el.style.width = '12px';
      el.style.height = '12px';
      layer.appendChild(el);
    });
    if (L.peak) {
      var el = d.createElement('div');
      el.className = 'peak-label';
      el.textContent = L.peak.label;
      el.style.top = Math.max(0, u.valToPos(L.peak.bytes, 'y') - 18) + 'px';
      layer.appendChild(el);
    }
  }

  // "#4e79a7" -> the colour a quarter as strong, on white
  function pale(hex) {
    var n = parseInt(hex.slice(1), 16);
    var mix = function (c) { return Math.round(c + (255 - c) * 0.75); };
    return 'rgb(' + mix(n >> 16) + ',' + mix((n >> 8) & 255) + ',' + mix(n & 255) + ')';
  }

  var pickRange = null; // (t0, t1 in seconds): the range view's marks nearest a drag's ends, once it is set up
  var L = data.live;
  var S = data.sites;
  var range = L || S;
  if (L) {
    var el = d.getElementById('chart-live');
    charts.push({el: el, u: new uPlot({
      width: widthOf(el), height: 280, padding: padding,
      cursor: {sync: {key: 'emheap'}},
      scales: {x: xScale(range), y: {range: function (u, min, max) { return [0, Math.max(max, L.peak ? L.peak.bytes : 0) * 1.1 || 1]; }}},
      axes: [{values: secondsTick}, yAxis],
      series: [
        {label: 'time', value: function (u, v) { return v === null || v === undefined ? '--' : v.toFixed(3) + ' s'; }},
        {label: 'live bytes', stroke: '#1f5fbf', width: 2, fill: 'rgba(31, 95, 191, 0.10)', points: {show: false},
          value: function (u, v, si, i) { return v === null || v === undefined ? '--' : exact(v) + ' in ' + formatCount(L.blocks[i]) + ' blocks'; }},
      ],
      plugins: [annotations(L)],
      // a drag over the chart picks the range view's marks (pickRange below)
      hooks: {setSelect: [function (u) {
        if (pickRange && u.select.width > 2) pickRange(u.posToVal(u.select.left, 'x'), u.posToVal(u.select.left + u.select.width, 'x'));
      }]},
    }, [L.t, L.bytes], el)});
  }

  var R = data.rate;
  if (R) {
    var rateEl = d.getElementById('chart-rate');
    var perSecond = function (u, v) { return v === null || v === undefined ? '--' : formatBytes(v) + '/s'; };
    var rateSeries = [{label: 'time', value: function (u, v) { return v === null || v === undefined ? '--' : v.toFixed(3) + ' s'; }},
      {label: 'bytes allocated', stroke: '#1f5fbf', width: 2, points: {show: false}, value: perSecond},
      {label: 'calls', scale: 'calls', stroke: '#888', width: 1, dash: [4, 3], points: {show: false},
        value: function (u, v) { return v === null || v === undefined ? '--' : formatCount(Math.round(v)) + '/s'; }}];
    var rateColumns = [R.t, R.bytes, R.calls];
    R.series.forEach(function (one) {
      rateSeries.push({label: (one.estimated ? '~' : '') + one.label, stroke: one.color, width: 1, points: {show: false}, value: perSecond});
      rateColumns.push(one.values);
    });
    charts.push({el: rateEl, u: new uPlot({
      width: widthOf(rateEl), height: 220, padding: padding,
      cursor: {sync: {key: 'emheap'}},
      scales: {x: xScale(range), y: {range: function (u, min, max) { return [0, max * 1.1 || 1]; }},
        calls: {range: function (u, min, max) { return [0, max * 1.1 || 1]; }}},
      axes: [{values: secondsTick}, {values: function (u, vals) { return vals.map(function (v) { return formatBytes(v).replace('.00 ', ' ') + '/s'; }); },
        incrs: incrs, size: axisWidth}, {scale: 'calls', side: 1, grid: {show: false}, size: axisWidth,
        values: function (u, vals) { return vals.map(function (v) { return formatCount(Math.round(v)); }); }}],
      series: rateSeries,
    }, rateColumns, rateEl)});
  }

  if (S) {
    var box = d.getElementById('chart-sites');
    box.classList.add('sites-chart');
    // drawn top of the stack first, each filled down to 0, so that each
    // band shows between its sum and the one below it
    var order = [];
    for (var i = S.series.length; i >= 0; i--) order.push(i);
    var series = [{label: 'time', value: function (u, v) { return v === null || v === undefined ? '--' : v.toFixed(3) + ' s'; }}];
    var columns = [S.t];
    var seriesIndex = {};
    var focused = null; // the uPlot series picked out, or null
    order.forEach(function (i) {
      var one = i === S.series.length ? S.other : S.series[i];
      var label = one.label;
      if (i < S.series.length) {
        label = d.createElement('a');
        label.href = '#site-' + one.siteId;
        label.textContent = one.label;
        label.setAttribute('data-site', one.siteId);
        // the link leads to the row; it does not hide the series (uPlot's
        // click on a legend entry)
        label.addEventListener('click', function (e) { e.stopPropagation(); });
        seriesIndex[one.siteId] = series.length;
      }
      var idx = series.length;
      // picked out (a row clicked): the others' bands pale, each still
      // opaque, so that the picked band shows exactly its own part
      var fill = function () { return focused === null || focused === idx ? one.color : pale(one.color); };
      series.push({label: label, stroke: one.stroke, fill: fill, width: 1, points: {show: false},
        value: function (u, v, si, i) {
          var raw = i === null || i === undefined ? null : one.values[i];
          return raw === null || raw === undefined ? '--' : (one.estimated ? '~' : '') + exact(raw);
        }});
      columns.push(S.stacked[i]);
    });
    var u3 = new uPlot({
      width: widthOf(box), height: 320, padding: padding,
      cursor: {sync: {key: 'emheap'}},
      scales: {x: xScale(range), y: {range: function (u, min, max) { return [0, max * 1.05 || 1]; }}},
      axes: [{values: secondsTick}, yAxis],
      series: series,
    }, columns, box);
    charts.push({el: box, u: u3});
    // the table's swatches in the series' colours
    Array.prototype.forEach.call(d.querySelectorAll('.swatch[data-color]'), function (sw) {
      sw.style.background = S.series[+sw.getAttribute('data-color')].color;
    });
    // a click on a charted row picks out its band (again: all bands). Not
    // uPlot's focus, which fades the other series: each band here is filled
    // down to 0 under the ones below it, and faded bands let it show through.
    var legendRows = u3.root.querySelectorAll('.u-legend tr');
    Array.prototype.forEach.call(d.querySelectorAll('tr.charted'), function (row) {
      row.addEventListener('click', function () {
        var site = +row.getAttribute('data-site');
        var again = focused === seriesIndex[site];
        Array.prototype.forEach.call(d.querySelectorAll('tr.focused'), function (r) { r.classList.remove('focused'); });
        focused = again ? null : seriesIndex[site];
        if (again) {
          box.removeAttribute('data-focused');
        } else {
          row.classList.add('focused');
          if (legendRows[focused]) legendRows[focused].classList.add('focused');
          box.setAttribute('data-focused', String(site));
        }
        u3.redraw(false);
      });
    });
  }

  var select = d.getElementById('since-select');
  if (select) {
    select.addEventListener('change', function () {
      Array.prototype.forEach.call(d.querySelectorAll('.since'), function (div) {
        div.hidden = div.getAttribute('data-mark') !== select.value;
      });
    });
  }

  // the range view: show the table of the pair picked (time_sections.js)
  var rangeStart = d.getElementById('range-start');
  var rangeEnd = d.getElementById('range-end');
  if (rangeStart && rangeEnd) {
    var showRange = function () {
      var key = rangeStart.value + '-' + rangeEnd.value;
      var any = false;
      Array.prototype.forEach.call(d.querySelectorAll('.range'), function (div) {
        div.hidden = div.getAttribute('data-range') !== key;
        if (!div.hidden) any = true;
      });
      d.getElementById('range-none').hidden = any;
    };
    rangeStart.addEventListener('change', showRange);
    rangeEnd.addEventListener('change', showRange);
    // A range runs between marks: a drag from t0 to t1 picks them as
    // --between does with times (model/ranges.js)
    pickRange = function (t0, t1) {
      var marksOf = function (select) {
        return Array.prototype.filter.call(select.options, function (o) { return o.value !== 'now'; })
          .map(function (o) { return {number: Number(o.value), t: Number(o.getAttribute('data-t'))}; });
      };
      var start = startMarkAt(marksOf(rangeStart), t0);
      var end = endMarkAfter(marksOf(rangeEnd), start, t1);
      rangeStart.value = String(start.number);
      rangeEnd.value = end ? String(end.number) : 'now';
      showRange();
      d.getElementById('range').scrollIntoView({block: 'nearest'});
    };
  }

  var layOut = function () {
    charts.forEach(function (c) { c.u.setSize({width: widthOf(c.el), height: c.u.height}); });
    // the sites chart's legend starts where its plot does
    var legend = S ? d.querySelector('.sites-chart .u-legend') : null;
    if (legend) legend.style.marginLeft = sides.left + 'px';
  };
  addEventListener('resize', layOut);
  // uPlot lays a chart out in a microtask after it is made: once all have
  // been, once more with every chart's axes known (the same sides in all),
  // and then the page says it is drawn (data-charts, which tests wait for)
  var later = function (fn) { Promise.resolve().then(fn); };
  later(function () {
    layOut();
    later(function () { d.body.setAttribute('data-charts', String(charts.length)); });
  });
}

module.exports = {CSS: CSS, pageScript: pageScript};
