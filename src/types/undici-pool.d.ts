// undici ships no types for its internal paths; the pool is the same class as the index's `Pool`.
declare module 'undici/lib/dispatcher/pool.js' {
  import { Pool } from 'undici';
  export default Pool;
}
