// The compressed chunks of a real archive (../shared/samples/real/Patch_00.arch06): each Oodle
// payload as the engine reads it, with its raw size, for the decoder tests, the fuzz targets and
// the Kraken benchmark.
import * as path from 'node:path';
import { LtarSource } from '../../core/archive';
import { identifyCodec, OodleCodecName } from '../../core/oodle';

export interface RealChunk {
  /** `<entry path>#<chunk index>` */
  name: string;
  codec: OodleCodecName;
  src: Uint8Array;
  rawSize: number;
}

/** Every compressed (not stored) chunk of the archive at `file`, in entry and chunk order. */
export function realChunks(file: string): RealChunk[] {
  const s = LtarSource.openFile(file, path.basename(file));
  const out: RealChunk[] = [];
  try {
    for (let i = 0; i < s.fileCount; i++) {
      const e = s.entryAt(i);
      if (e.storage !== 'chunked') continue;
      const cs = e.chunkStream();
      for (let c = 0, n = cs.indexAll(); c < n; c++) {
        const ch = cs.chunk(c);
        if (ch.stored) continue;
        // A plain Uint8Array copy: a file source returns Buffers, whose slice() a fuzz case would mutate in place.
        const src = Uint8Array.from(s.bytes.readSync(e.record.dataOffset + ch.headerOffset + 8, ch.storedLen));
        out.push({ name: `${e.path}#${c}`, codec: identifyCodec(src), src, rawSize: ch.rawLen });
      }
    }
  } finally {
    s.close();
  }
  return out;
}
