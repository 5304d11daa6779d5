/**
 * A bar chart drawn as SVG (nothing loaded, nothing inline to allow): one bar per point, its
 * value written above it. The figures are also given as a list for screen readers.
 */
export function BarChart({ label, points }: { label: string; points: Array<{ name: string; value: number }> }) {
  const max = Math.max(1, ...points.map((point) => point.value));
  const width = Math.max(1, points.length) * 48;
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${width} 140`} role="img" aria-label={label} preserveAspectRatio="xMinYMid meet">
        {points.map((point, index) => {
          const height = Math.round((point.value / max) * 100);
          const x = index * 48 + 8;
          return (
            <g key={index}>
              <rect x={x} y={115 - height} width={32} height={height} className="bar" />
              <text x={x + 16} y={110 - height} textAnchor="middle" className="value">
                {point.value}
              </text>
              <text x={x + 16} y={132} textAnchor="middle" className="axis">
                {point.name}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="visually-hidden">
        {label}: {points.map((point) => `${point.name} ${point.value}`).join(', ')}
      </figcaption>
    </figure>
  );
}
