/** A play button in a frame (24×24 grid, currentColor), like the icons in components/icons.tsx. */
export const ScenariosIcon = () => (
  <svg
    className="icon"
    viewBox="0 0 24 24"
    width="18"
    height="18"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.8"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
  >
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <path d="M10 9l5 3-5 3z" />
  </svg>
);
