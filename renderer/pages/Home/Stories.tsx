import { useStore } from '../../store';
import { PACES, type Pace, STORIES } from '../../store/stories';

/** One-click stories for a presenter: each plays its steps through the control API with a caption. */
export function Stories() {
  const story = useStore((s) => s.story);
  const pace = useStore((s) => s.storyPace);
  const play = useStore((s) => s.playStory);
  const pause = useStore((s) => s.pauseStory);
  const setPace = useStore((s) => s.setStoryPace);
  const close = useStore((s) => s.closeStory);
  const running = story !== null && !story.done && !story.failed;
  return (
    <section className="stories" data-testid="stories">
      <div className="stories-bar">
        <span className="stories-label">Show a story</span>
        <div className="stories-buttons">
          {STORIES.map(({ id, label }) => (
            <button
              key={id}
              type="button"
              className="btn btn-secondary btn-sm"
              disabled={running}
              onClick={() => void play(id)}
              data-testid={`story-${id}`}
            >
              {label}
            </button>
          ))}
        </div>
        <label className="stories-pace">
          <span className="muted small">Pace</span>
          <select
            className="input input-sm"
            value={pace}
            onChange={(e) => setPace(e.target.value as Pace)}
            data-testid="story-pace"
          >
            {Object.keys(PACES).map((p) => (
              <option key={p} value={p}>
                {p.charAt(0).toUpperCase() + p.slice(1)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {story && (
        <div
          className={`story-caption ${story.failed ? 'story-failed' : ''}`}
          role="status"
          data-testid="story-caption"
          data-story={story.id}
          data-step={story.step}
          data-done={story.done ? 'true' : 'false'}
          data-failed={story.failed ? 'true' : 'false'}
        >
          <span className="story-step muted small">
            {story.done ? 'Done' : `Step ${story.step} of ${story.steps}`}
          </span>
          <span className="story-text">{story.caption}</span>
          <span className="story-actions">
            {running && (
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                onClick={() => pause(!story.paused)}
                data-testid="story-pause"
              >
                {story.paused ? 'Resume' : 'Pause'}
              </button>
            )}
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={close}
              data-testid="story-close"
            >
              {running ? 'Stop' : 'Close'}
            </button>
          </span>
        </div>
      )}
    </section>
  );
}
