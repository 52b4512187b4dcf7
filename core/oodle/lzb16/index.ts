/**
 * Oodle LZB16 decoder (decoder type 2): entry points for the codec dispatcher. The decoder is
 * stateless and allocates nothing; see layout.ts for the format and decode.ts for what it refuses.
 */
export { checkLzb16Framing, decodeLzb16Into } from './decode';
