// A small seeded random generator (mulberry32) for browser tests and the soak, so every pause
// point and random action comes from a seed and a run can be repeated.

/** Returns a function giving numbers in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
