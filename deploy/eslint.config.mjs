// The root config skips deploy/ as a whole; here the same rules apply to the chart checks and scripts.
import root from '../eslint.config.mjs';

export default [
  ...root,
  {
    files: ['scripts/**/*.mjs', 'docker/**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        fetch: 'readonly',
        AbortSignal: 'readonly',
        Buffer: 'readonly',
      },
    },
    rules: { 'no-console': 'off' },
  },
];
