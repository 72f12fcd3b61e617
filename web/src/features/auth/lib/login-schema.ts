// The sign-in form's schema, in a module of its own so that the page loads it (and zod) once drawn.
export { loginSchema } from '@cm/contracts';
