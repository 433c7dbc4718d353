import * as assert from 'node:assert/strict';
import { axisLabel, clampWindow, cursorStep, insideEdges, panWindow, revealTime, ticks, zoomWindow } from '../../webview/timeScale';
import { fitMiddle, middleEllipsis } from '../../webview/fitText';

const run = { fromMs: 0, toMs: 600_000 };

describe('timeline zoom, pan and axis', () => {
  it('zooms around the anchor, which stays where it was on screen', () => {
    assert.deepEqual(zoomWindow(run, 0.5, 300_000, run), { fromMs: 150_000, toMs: 450_000 });
    assert.deepEqual(zoomWindow(run, 0.5, 0, run), { fromMs: 0, toMs: 300_000 });
    assert.deepEqual(zoomWindow({ fromMs: 100_000, toMs: 200_000 }, 0.5, 120_000, run), { fromMs: 110_000, toMs: 160_000 });
  });

  it('stops zooming in at one second and out at the whole run', () => {
    assert.deepEqual(zoomWindow({ fromMs: 1000, toMs: 2000 }, 0.5, 1500, run), { fromMs: 1000, toMs: 2000 });
    assert.deepEqual(zoomWindow({ fromMs: 100_000, toMs: 200_000 }, 100, 150_000, run), run);
  });

  it('pans within the run', () => {
    assert.deepEqual(panWindow({ fromMs: 100_000, toMs: 200_000 }, 50_000, run), { fromMs: 150_000, toMs: 250_000 });
    assert.deepEqual(panWindow({ fromMs: 100_000, toMs: 200_000 }, -500_000, run), { fromMs: 0, toMs: 100_000 });
    assert.deepEqual(panWindow({ fromMs: 100_000, toMs: 200_000 }, 900_000, run), { fromMs: 500_000, toMs: 600_000 });
    assert.deepEqual(clampWindow({ fromMs: -50, toMs: 10_000_000 }, run), run);
  });

  it('pans just enough to show a cursor moved out of view', () => {
    const view = { fromMs: 100_000, toMs: 200_000 };
    assert.equal(revealTime(view, 150_000, run), view);
    assert.deepEqual(revealTime(view, 250_000, run), { fromMs: 155_000, toMs: 255_000 });
  });

  it('labels ticks at round steps with room between them', () => {
    assert.deepEqual(ticks(run, 700).map((t) => t.label), ['0s', '1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m', '10m']);
    assert.deepEqual(ticks({ fromMs: 20_000, toMs: 30_000 }, 400).map((t) => t.label), ['20s', '22s', '24s', '26s', '28s', '30s']);
    assert.deepEqual([axisLabel(0), axisLabel(90_000), axisLabel(-10_000), axisLabel(3_720_000), axisLabel(1500, 500), axisLabel(23_008, 1)], ['0s', '1m30s', '-10s', '1h2m', '1.5s', '23.008s']);
    // Rounded before it is split: never "5m60s"; the cursor's millisecond step shows milliseconds, as its table does.
    assert.deepEqual([axisLabel(359_999), axisLabel(299_996), axisLabel(59_500), axisLabel(47_146, 1), axisLabel(47_150, 1), axisLabel(119_996, 50)], ['6m', '5m', '1m', '47.146s', '47.15s', '2m']);
  });

  it('moves the cursor by about a hundredth of the view', () => {
    assert.equal(cursorStep(run), 5000);
    assert.equal(cursorStep({ fromMs: 0, toMs: 60_000 }), 500);
  });

  it('shortens long pod names in the middle, where pods of one workload look alike', () => {
    assert.equal(middleEllipsis('web-9jwrnbzhwc-45fjh', 12), 'web-9…-45fjh');
    assert.equal(middleEllipsis('kafka-0', 12), 'kafka-0');
    // Measured, not estimated: a name that fits is kept whole, a longer one keeps as much as fits.
    const sixPx = (text: string) => text.length * 6;
    assert.equal(fitMiddle('license-server-j7w2zv8d9f-j84zz', 191, sixPx), 'license-server-j7w2zv8d9f-j84zz');
    assert.equal(fitMiddle('gke-prod-cluster-default-pool-3f2a1b7d-x9zq', 120, sixPx), 'gke-prod-…a1b7d-x9zq');
    assert.equal(sixPx(fitMiddle('gke-prod-cluster-default-pool-3f2a1b7d-x9zq', 120, sixPx)), 120);
  });

  it('labels a second in quarters with the decimals they need, and a week in readable steps', () => {
    assert.deepEqual(ticks({ fromMs: 0, toMs: 1000 }, 430).map((t) => t.label), ['0s', '0.25s', '0.5s', '0.75s', '1s']);
    const week = ticks({ fromMs: 0, toMs: 168 * 3_600_000 }, 1100).map((t) => t.label);
    assert.deepEqual([week.length, week[1], week.at(-1)], [15, '12h', '168h']);
    // Past the steps, whole days: a week at 300 px.
    assert.deepEqual(ticks({ fromMs: 0, toMs: 168 * 3_600_000 }, 300).map((t) => t.label), ['0s', '48h', '96h', '144h']);
  });

  it('draws the cursor a pixel inside the chart at its very edges, and leaves one outside it outside', () => {
    assert.deepEqual([0, 0.5, 300, 599.5, 600, -4, 605].map((x) => insideEdges(x, 600)), [1, 1, 300, 599, 599, -4, 605]);
  });
});
