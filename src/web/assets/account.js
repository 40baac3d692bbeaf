// The account page's only script: progressive enhancement, every form works without it.

// Copy buttons: <button data-copy="ID"> copies the text of the element with that id.
for (const button of document.querySelectorAll('button[data-copy]')) {
  button.hidden = false;
  button.addEventListener('click', async () => {
    const source = document.getElementById(button.dataset.copy);
    if (!source) return;
    try {
      await navigator.clipboard.writeText(source.textContent.trim());
      button.textContent = 'Copied';
    } catch {
      const range = document.createRange();
      range.selectNodeContents(source);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      button.textContent = 'Selected: press Ctrl+C';
    }
  });
}

// The usage chart: the numbers come from the page's JSON block (the table below the chart has
// the same ones); uPlot draws them, credits as bars and calls as a line on their own axis.
const usageBlock = document.getElementById('usage-data');
const chartBox = document.getElementById('usage-chart');
if (usageBlock && chartBox && window.uPlot) {
  const usage = JSON.parse(usageBlock.textContent);
  const days = usage.days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
  // Whole numbers only: there is no half a call or half a credit.
  const incrs = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 1e7, 1e8];
  const size = () => ({
    width: chartBox.clientWidth,
    height: Math.max(220, Math.min(320, chartBox.clientWidth * 0.45)),
  });
  const chart = new window.uPlot(
    {
      ...size(),
      tzDate: (ts) => window.uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      scales: {
        // Half a day on each side, so the first and last days' bars are drawn whole.
        x: { time: true, range: (_u, min, max) => [min - 43_200, max + 43_200] },
        credits: { range: (_u, _min, max) => [0, Math.max(1, max)] },
      },
      axes: [
        {},
        { scale: 'credits', label: 'credits', size: 56, incrs },
        { scale: 'calls', label: 'calls', side: 1, grid: { show: false }, size: 48, incrs },
      ],
      series: [
        {},
        {
          label: 'Credits',
          scale: 'credits',
          stroke: '#0b5cad',
          fill: 'rgba(11, 92, 173, 0.35)',
          paths: window.uPlot.paths.bars({ size: [0.7, 24] }),
          points: { show: false },
        },
        { label: 'Calls', scale: 'calls', stroke: '#c2410c', width: 2, points: { size: 4 } },
      ],
    },
    [days, usage.credits, usage.calls],
    chartBox,
  );
  new ResizeObserver(() => chart.setSize(size())).observe(chartBox);
}
