/** A screen whose code is fetched on its first visit; offline, it says so instead of failing. */
export { lazyComponent as lazyScreen } from '../components/ui/lazy-component';
