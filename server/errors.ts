/** Domain errors: each carries the HTTP status it maps to; one error handler renders `{error}`. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: a business rule the spec lists as a bad request. */
export class BusinessRuleError extends AppError {
  constructor(message: string) {
    super(400, message);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message = 'Missing or invalid API key') {
    super(401, message);
  }
}
export class ForbiddenError extends AppError {
  constructor(message: string) {
    super(403, message);
  }
}
export class NotFoundError extends AppError {
  constructor(what: string, id: string | number) {
    super(404, `${what} not found: ${id}`);
  }
}
export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}
/** 422: input that breaks the schema or a field rule; the message names the field. */
export class ValidationError extends AppError {
  constructor(field: string, problem: string) {
    super(422, `${field}: ${problem}`);
  }
}
export class TooManyRequestsError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }
}
