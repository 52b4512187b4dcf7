/**
 * How sure a reader is of what it read: one vocabulary for every format, its records and its
 * fields (the CLI prints it, the editors mark whatever is not confirmed).
 *
 * - `confirmed`: the documents and the real samples agree on the layout, and every check the
 *   reader makes held on this file (sizes close, counts add up, the measured rules hold).
 * - `likely`: support but no proof: one source or one sample describes the reading, this file fits
 *   it and nothing contradicts it. (No reader needs it yet; it keeps such readings apart from
 *   guesses when one does.)
 * - `uncertain`: a guess or a search: no sample exists (a layout from a seed alone), the reading
 *   was chosen among hypotheses, or a rule the samples follow broke on this file. The raw bytes
 *   are kept and the notes say why.
 *
 * The vocabularies it replaces map onto it as: high, documented → confirmed; UNCERTAIN → uncertain.
 */
export type Confidence = 'confirmed' | 'likely' | 'uncertain';
