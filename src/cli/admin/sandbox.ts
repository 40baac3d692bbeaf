import type { Command } from 'commander';
import { connect } from '../../data/client.ts';
import { SANDBOX_SEARCH_PATH } from '../../data/sandbox.ts';
import { sandboxWatchTargets } from '../../data/watch-news.ts';
import { ingestObservations } from '../../ingest/index.ts';
import { generateDataset } from '../../synthetic/generator.ts';
import { take } from '../../synthetic/write-files.ts';
import { type AdminContext, jsonOption, UsageError } from './command-line.ts';

/**
 * `admin sandbox replay-load`: a small generated increment loaded into the sandbox's tables
 * through the real ingest (docs/watches.md, "Sandbox replay"): a slice of generated background
 * activity, plus, for each live sandbox watch, one observation that is news to it (a new
 * identifier on a watched domain; a new landing domain for a watched name). The sandbox watches
 * then get real deliveries, free, from the service's senders.
 */
export function sandboxCommand(program: Command, { print, databaseUrl }: AdminContext): void {
  program
    .command('sandbox')
    .description('the sandbox dataset of test keys')
    .command('replay-load')
    .description('replay a small generated load into the sandbox, with news for every sandbox watch')
    .option('--observations <n>', 'generated background observations', '500')
    .addOption(jsonOption())
    .action(async (options: { observations: string; json?: boolean }) => {
      const count = Number(options.observations);
      if (!Number.isInteger(count) || count < 0 || count > 100_000)
        throw new UsageError('--observations must be a whole number from 0 to 100000.');
      if (databaseUrl === undefined) throw new UsageError('The sandbox replay needs the database URL.');
      const sandbox = connect(databaseUrl, 2, { searchPath: SANDBOX_SEARCH_PATH });
      try {
        const stamp = Date.now();
        const today = new Date();
        const day = today.toISOString().slice(0, 10);
        const watches = await sandboxWatchTargets(sandbox);
        const news = watches.map((watch, n) => {
          const id = `AR9${String(stamp).slice(-9)}${String(n).padStart(4, '0')}`;
          return watch.kind === 'domain'
            ? {
                creative_id: `CRreplay${stamp}-${n}`,
                advertiser_id: id,
                advertiser_name: `Replay Bidder ${stamp}-${n}`,
                country: 'US',
                seen_on: day,
                landing_url: `https://www.${watch.target}/replay`,
              }
            : {
                creative_id: `CRreplay${stamp}-${n}`,
                advertiser_id: id,
                advertiser_name: watch.target,
                country: 'US',
                seen_on: day,
                landing_url: `https://replay-${stamp}-${n}.com/`,
              };
        });
        const background = take(generateDataset({ seed: stamp % 1_000_000, size: count, today }).observations(), count);
        const summary = await ingestObservations(sandbox, [...background, ...news], { today });
        const value = {
          read: summary.read,
          new: summary.new,
          updated: summary.updated,
          unchanged: summary.unchanged,
          rejected: summary.rejected,
          sandbox_watches: watches.length,
        };
        print(
          !!options.json,
          value,
          `Replayed ${summary.read} observations into the sandbox (${summary.new} new), with news for ` +
            `${watches.length} sandbox watch(es); their deliveries go out free.`,
        );
      } finally {
        await sandbox.end({ timeout: 5 });
      }
    });
}
