/** The sample install's string tables (SKDB), one per language folder. */
import { writeSkdb } from '../formats/strings/writer';
import { stringHash } from '../hash/stringHash';

/**
 * The sample string tables (seed 004 "String tables"): `database\string\<language>\string.strdb`,
 * in HotChunk as the game ships them; two of the 14 language folders. Keys are StringHash of the
 * key names (the script's string literals name two of them).
 */
export const SAMPLE_STRING_TABLES = { enus: 'database\\string\\enus\\string.strdb', frfr: 'database\\string\\frfr\\string.strdb' } as const;
export const SAMPLE_STRINGS: Record<keyof typeof SAMPLE_STRING_TABLES, Record<string, string>> = {
  enus: {
    UI_1Sword_Starting_N: 'Urfael',
    UI_Sample_GateOpen: 'The gate opens.',
    UI_Sample_GateAlarm: 'Alarm at the gate!',
    UI_Sample_GateHint: 'Two relays raise the alarm.\nFind them both.',
  },
  frfr: {
    UI_1Sword_Starting_N: 'Urfael',
    UI_Sample_GateOpen: 'La porte s\u2019ouvre.',
    UI_Sample_GateAlarm: 'Alerte \u00e0 la porte\u00a0!',
    UI_Sample_GateHint: 'Deux relais donnent l\u2019alerte.\nTrouvez-les.',
  },
};

export function sampleStringTable(language: keyof typeof SAMPLE_STRING_TABLES): Uint8Array {
  return writeSkdb(Object.entries(SAMPLE_STRINGS[language]).map(([key, text]) => ({ hash: stringHash(key), text })));
}
