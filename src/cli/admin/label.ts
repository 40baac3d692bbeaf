import type { Command } from 'commander';
import { ingestLabels } from '../../ingest/index.ts';
import { type AdminContext, jsonOption, UsageError } from './command-line.ts';

/** `admin label set NAME TYPE`. */
export function labelCommand(program: Command, { sql, print }: AdminContext): void {
  program
    .command('label')
    .description('manual advertiser labels')
    .command('set <name> <type>')
    .description('label an advertiser name agency or direct, or none to clear the label')
    .addOption(jsonOption())
    .action(async (name: string, type: string, options: { json?: boolean }) => {
      if (!['agency', 'direct', 'none'].includes(type)) throw new UsageError('TYPE must be agency, direct or none.');
      // The same validation and storage as a labels file, so both ways of labelling agree.
      const summary = await ingestLabels(sql, [{ advertiser_name: name, advertiser_type: type }]);
      if (summary.rejected > 0) throw new UsageError(`Label refused: ${summary.rejects[0].reason}.`);
      const advertiserType = type === 'none' ? null : type;
      const changed = summary.new + summary.updated > 0;
      const text =
        `${JSON.stringify(name)} ` +
        `${advertiserType ? `is labelled ${advertiserType}` : 'has no label'}${changed ? '' : ' (unchanged)'}.`;
      print(!!options.json, { advertiser_name: name, advertiser_type: advertiserType, changed }, text);
    });
}
