// Checking a finished game's shuffles in the browser, as `skit verify`
// does (docs/fairness.md): sha256 of the revealed seed must be the
// commitment published at the start, and every shuffle in the full log
// must be what the seed gives: event k's key is
// sha256(seed || "skitgubbe-shuffle-v1" || u64be(k)), its words the
// ChaCha20 keystream under that key (zero nonce, counter from 0), each
// draw in 0..n by rejection, each shuffle Fisher-Yates from the top.

import { byRank, canonicalDeck } from "./cards.js";

const NAME = new TextEncoder().encode("skitgubbe-shuffle-v1");

function hexToBytes(hex) {
  return new Uint8Array(hex.match(/../g).map((b) => parseInt(b, 16)));
}

function bytesToHex(bytes) {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

// The ChaCha20 keystream as 32-bit words, block after block.
function* chacha20Words(key) {
  const k = new DataView(key.buffer, key.byteOffset, 32);
  const state = new Uint32Array(16);
  state.set([0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]);
  for (let i = 0; i < 8; i++) state[4 + i] = k.getUint32(4 * i, true);
  const x = new Uint32Array(16);
  const rotl = (v, n) => (v << n) | (v >>> (32 - n));
  const quarter = (a, b, c, d) => {
    x[a] += x[b]; x[d] = rotl(x[d] ^ x[a], 16);
    x[c] += x[d]; x[b] = rotl(x[b] ^ x[c], 12);
    x[a] += x[b]; x[d] = rotl(x[d] ^ x[a], 8);
    x[c] += x[d]; x[b] = rotl(x[b] ^ x[c], 7);
  };
  for (;;) {
    x.set(state);
    for (let round = 0; round < 10; round++) {
      quarter(0, 4, 8, 12); quarter(1, 5, 9, 13); quarter(2, 6, 10, 14); quarter(3, 7, 11, 15);
      quarter(0, 5, 10, 15); quarter(1, 6, 11, 12); quarter(2, 7, 8, 13); quarter(3, 4, 9, 14);
    }
    for (let i = 0; i < 16; i++) yield (x[i] + state[i]) >>> 0;
    state[12] = (state[12] + 1) >>> 0;
    if (state[12] === 0) state[13] = (state[13] + 1) >>> 0;
  }
}

function below(words, n) {
  const zone = 2 ** 32 - (2 ** 32 % n);
  for (;;) {
    const w = words.next().value;
    if (w < zone) return w % n;
  }
}

function shuffle(words, cards) {
  const out = [...cards];
  for (let i = out.length - 1; i > 0; i--) {
    const j = below(words, i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

async function eventWords(seed, k) {
  const input = new Uint8Array(seed.length + NAME.length + 8);
  input.set(seed);
  input.set(NAME, seed.length);
  new DataView(input.buffer).setBigUint64(seed.length + NAME.length, BigInt(k));
  return chacha20Words(await sha256(input));
}

// The first words of the all-zero key's stream, to show the cipher here
// is the one the service uses (docs/fairness.md, step 3).
export function selfTest() {
  const words = chacha20Words(new Uint8Array(32));
  return words.next().value === 0xade0b876 && words.next().value === 0x903df1a0;
}

// {ok, lines}: what was checked, and the first mismatch if any. `history`
// is GetHistory's answer for a finished game.
export async function verify(history) {
  if (!globalThis.crypto?.subtle) return { ok: null, lines: ["This browser allows the check only on https or localhost pages; save the history and run skit verify."] };
  if (!history.seed) return { ok: null, lines: ["The seed is revealed when the game is over."] };
  const lines = [];
  const seed = hexToBytes(history.seed);
  const digest = bytesToHex(await sha256(seed));
  if (digest !== history.shuffleCommitment) return { ok: false, lines: [`sha256(seed) is ${digest}, not the commitment ${history.shuffleCommitment}.`] };
  lines.push(`sha256(seed) = ${digest}: the commitment published when the game was created.`);
  const shuffles = (history.actions || []).map((a) => JSON.parse(a)).filter((a) => Array.isArray(a.shuffle)).map((a) => a.shuffle);
  for (const [k, outcome] of shuffles.entries()) {
    const given = k === 0 ? canonicalDeck() : [...outcome].sort(byRank);
    const derived = shuffle(await eventWords(seed, k), given);
    if (derived.join() !== outcome.join()) return { ok: false, lines: [...lines, `Shuffle ${k} differs from what the seed gives.`] };
  }
  lines.push(`The deal and ${Math.max(0, shuffles.length - 1)} later shuffle(s) are exactly what the seed gives.`);
  return { ok: true, lines };
}
