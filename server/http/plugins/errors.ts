import fp from 'fastify-plugin';
import { errorHandler, notFoundHandler } from '../errors.js';

/** One error handler for the whole app: every failure is `{error}`, internals hidden on 5xx. */
export const errors = fp(
  async (app) => {
    app.setErrorHandler(errorHandler);
    app.setNotFoundHandler(notFoundHandler);
  },
  { name: 'errors' },
);
