import { Icon } from '../../components/icons';

/** A play button in a frame, on the shared icon grid (components/icons.tsx). */
export const ScenariosIcon = () => (
  <Icon>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <path d="M10 9l5 3-5 3z" />
  </Icon>
);
