import '../styles/surveys.css';
const points = [
  {
    title: 'Survey questions',
    text: 'Short surveys you finish in minutes, one question per screen.',
    icon: 'M4 6h16M4 12h10M4 18h13',
  },
  {
    title: 'Tough choices',
    text: 'Real dilemmas with no easy answer, and the option to leave any blank.',
    icon: 'M12 3v18M5 8l7-5 7 5M3 14l4-6 4 6a4 4 0 0 1-8 0zM13 14l4-6 4 6a4 4 0 0 1-8 0z',
  },
  {
    title: 'Taboos',
    text: 'Sex, money, death, crime: the things people think about but rarely say.',
    icon: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM5.6 5.6l12.8 12.8',
  },
  {
    title: 'A mirror for self-knowledge',
    text: 'See where you stand against everyone else, question by question.',
    icon: 'M12 2a7 9 0 1 0 0 18 7 9 0 0 0 0-18zM12 20v2M8 22h8',
  },
  {
    title: 'Anonymous unless you choose',
    text: 'Your answers carry no account: nobody, not even Candor, can tie them to you.',
    icon: 'M3 12s3.5-6 9-6 9 6 9 6-3.5 6-9 6-9-6-9-6zM4 4l16 16',
  },
  {
    title: 'Verified humans only',
    text: 'Every signup is verified, so bots and fake accounts cannot distort the results.',
    icon: 'M12 3l7 3v5c0 4.5-3 8.5-7 10-4-1.5-7-5.5-7-10V6zM9 12l2 2 4-4',
  },
];

/** The home page's six promises (spec section 1). */
export function SellingPoints() {
  return (
    <section id="why" className="points" aria-labelledby="why-heading">
      <h2 id="why-heading">Why Candor</h2>
      <ul className="points__list">
        {points.map((p) => (
          <li key={p.title} className="point">
            <svg
              viewBox="0 0 24 24"
              width="28"
              height="28"
              aria-hidden="true"
              className="point__icon"
            >
              <path
                d={p.icon}
                fill="none"
                stroke="currentColor"
                strokeWidth="1.8"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
            <h3>{p.title}</h3>
            <p>{p.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
