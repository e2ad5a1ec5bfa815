import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '../../contract/common.js';
import {
  RecordingExpectBody,
  RecordingExpectResult,
  RecordingStartBody,
  RecordingState,
  RecordingStopped,
} from '../../contract/recording.js';
import type { ScenarioRecorder } from '../../recording/recorder.js';
import type { Use } from '../types.js';

/** Recording a scenario: start, state, expectations from the current state, stop (→ YAML). */
export interface RecordingControlRoutesDeps {
  recorder: Pick<ScenarioRecorder, 'expect' | 'start' | 'state' | 'stop'>;
}

export const recordingControlRoutes: FastifyPluginAsyncTypebox<{
  use: Use<RecordingControlRoutesDeps>;
}> = async (app, { use }) => {
  const tags = ['sandbox: scenarios'];
  // These routes change no data: nothing to join a group commit for.
  const config = { groupCommit: false };
  app.post(
    '/recording/start',
    {
      config,
      schema: {
        tags,
        operationId: 'sandboxStartRecording',
        summary: 'Start recording a scenario',
        body: RecordingStartBody,
        response: { 200: RecordingState, 409: ErrorBody, 422: ErrorBody },
      },
    },
    async (request) => use(request).recorder.start(request.body.name),
  );
  app.get(
    '/recording',
    {
      schema: {
        tags,
        operationId: 'sandboxGetRecording',
        summary: 'Whether a recording runs, and its steps so far',
        response: { 200: RecordingState },
      },
    },
    async (request) => use(request).recorder.state(),
  );
  app.post(
    '/recording/expect',
    {
      config,
      schema: {
        tags,
        operationId: 'sandboxAddRecordingExpectation',
        summary: 'Add an expectation from the current state of a resource to the recording',
        body: RecordingExpectBody,
        response: { 200: RecordingExpectResult, 404: ErrorBody, 409: ErrorBody, 422: ErrorBody },
      },
    },
    async (request) => use(request).recorder.expect(request.body),
  );
  app.post(
    '/recording/stop',
    {
      config,
      schema: {
        tags,
        operationId: 'sandboxStopRecording',
        summary: 'Stop recording; answers the scenario (YAML)',
        response: { 200: RecordingStopped, 409: ErrorBody },
      },
    },
    async (request) => use(request).recorder.stop(),
  );
};
