// The command line of nlgov-adr-lint: its own options taken out, `spectral lint`'s options read as
// far as nlgov-adr-lint needs them (formats, outputs, quiet) and the rest passed on as they are.

/** `spectral lint` options that take a value (yargs also accepts them as --name=value). */
const SPECTRAL_VALUE_OPTIONS = new Set(['-e', '--encoding', '-f', '--format', '-o', '--output', '--stdin-filepath', '--resolver', '-r', '--ruleset', '-F', '--fail-severity']);

/**
 * Splits arguments into options and documents, as `spectral lint` (yargs) reads them: an option
 * that takes a value takes the next argument unless written --name=value; `--output.<format>`
 * takes one too; what follows `--` is documents too (afterSeparator), whatever they look like.
 */
export function splitArguments(args) {
  const options = [];
  const documents = [];
  let afterSeparator = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index];
    if (arg === '--') {
      afterSeparator = args.slice(index + 1);
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      documents.push(arg);
      continue;
    }
    const name = arg.split('=')[0];
    const takesValue = !arg.includes('=') && (SPECTRAL_VALUE_OPTIONS.has(name) || /^(--output|-o)\.[^.]+$/.test(name));
    if (takesValue && index + 1 < args.length) {
      options.push([arg, args[index + 1]]);
      index += 1;
    } else options.push([arg]);
  }
  return { options, documents, afterSeparator };
}

/** The value of a split option: `--name value` or `--name=value`. */
function valueOf(option) {
  return option.length === 2 ? option[1] : option[0].slice(option[0].indexOf('=') + 1);
}

function nameOf(option) {
  return option[0].split('=')[0];
}

/**
 * The formats asked for and where each goes, as `spectral lint` decides it: -f (repeatable,
 * default stylish); -o for the first format or --output.<format> per format; the first format
 * without an output goes to stdout ('<stdout>').
 */
export function formatsAndOutputs(options) {
  const formats = [];
  let single;
  const perFormat = {};
  for (const option of options) {
    const name = nameOf(option);
    if (name === '-f' || name === '--format') formats.push(valueOf(option));
    else if (name === '-o' || name === '--output') single = valueOf(option);
    else {
      const dotted = /^(?:--output|-o)\.([^.]+)$/.exec(name);
      if (dotted !== null) perFormat[dotted[1]] = valueOf(option);
    }
  }
  if (formats.length === 0) formats.push('stylish');
  const outputs = single !== undefined ? { [formats[0]]: single } : { ...perFormat };
  const missing = formats.find((format) => !(format in outputs));
  if (Object.keys(outputs).length < formats.length && missing !== undefined) outputs[missing] = '<stdout>';
  return { formats, outputs };
}

/** The options without the format and output ones: nlgov-adr-lint writes those itself. */
export function withoutFormatsAndOutputs(options) {
  return options.filter((option) => !/^(-f|--format|-o|--output)(\..+)?$/.test(nameOf(option)));
}

/** Whether a boolean option is on (-q, --quiet, --quiet=true; not --no-quiet or --quiet=false). */
export function isOn(options, short, long) {
  let on = false;
  for (const option of options) {
    const [name, value] = option[0].split('=');
    if (name === short || name === long) on = value === undefined || value === 'true';
    else if (name === `--no-${long.slice(2)}`) on = false;
  }
  return on;
}

/** Formats and outputs back as `spectral lint` arguments. */
export function formatArguments(formats, outputs) {
  const args = formats.flatMap((format) => ['-f', format]);
  if (formats.length === 1) return outputs[formats[0]] === '<stdout>' ? args : [...args, '-o', outputs[formats[0]]];
  return [...args, ...formats.flatMap((format) => (outputs[format] === '<stdout>' ? [] : [`--output.${format}`, outputs[format]]))];
}
