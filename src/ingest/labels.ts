import type { components } from '../../generated/api-types.ts';
import type { Sql } from '../data/client.ts';
import {
  type BatchOutcome,
  countStatuses,
  type IngestKind,
  type IngestOptions,
  type IngestSummary,
  ingestInBatches,
  type Records,
  type RowStatus,
} from './batches.ts';
import { type Connection, copyField } from './copy.ts';
import { advertiserName, reject } from './fields.ts';

/** The fields of a label record, as named in files. */
export const LABEL_FIELDS = ['advertiser_name', 'advertiser_type'] as const;

const LABELS_LOCK = 7_310_003;

/**
 * Loads manual labels by advertiser name. `agency` or `direct` (exact, lower case) set the label;
 * an empty, null or missing `advertiser_type`, or `none`, clears it; anything else is rejected.
 * Setting a label on an unlabelled name is "new", changing or clearing one "updated", and
 * repeating the current state (clearing an absent label included) "unchanged".
 */
export async function ingestLabels(sql: Sql, records: Records, options: IngestOptions = {}): Promise<IngestSummary> {
  return ingestInBatches(sql, records, options, LABELS);
}

const LABELS: IngestKind = {
  lock: LABELS_LOCK,
  tables: {
    ingest_labels_staged: `
      pos             integer NOT NULL,
      advertiser_name text COLLATE "C" NOT NULL,
      advertiser_type text COLLATE "C"`,
  },
  columns: ['pos', 'advertiser_name', 'advertiser_type'],
  validate: validateLabel,
  apply: applyLabels,
};

function validateLabel(record: Record<string, unknown>): string {
  const name = advertiserName(record);
  const type = record.advertiser_type;
  // null clears the label.
  let label: components['schemas']['AdvertiserType'] | null;
  if (type === undefined || type === null || type === '' || type === 'none') label = null;
  else if (type === 'agency' || type === 'direct') label = type;
  else reject('unknown advertiser_type');
  return `${copyField(name)}\t${copyField(label)}`;
}

async function applyLabels(connection: Connection): Promise<BatchOutcome> {
  // Every CTE reads the labels as they were before this statement.
  const statuses = await connection<{ status: RowStatus; count: number }[]>`
    WITH classified AS (
      SELECT b.advertiser_type,
             CASE WHEN row_number() OVER same_name = 1 THEN l.advertiser_type
                  ELSE lag(b.advertiser_type) OVER same_name END AS type_before
      FROM ingest_labels_staged b
      LEFT JOIN labels l ON l.advertiser_name = b.advertiser_name
      WINDOW same_name AS (PARTITION BY b.advertiser_name ORDER BY b.pos)
    ), final AS (
      SELECT DISTINCT ON (advertiser_name) advertiser_name, advertiser_type
      FROM ingest_labels_staged
      ORDER BY advertiser_name, pos DESC
    ), labelled AS (
      INSERT INTO labels AS l (advertiser_name, advertiser_type)
      SELECT advertiser_name, advertiser_type FROM final WHERE advertiser_type IS NOT NULL
      ON CONFLICT (advertiser_name) DO UPDATE SET advertiser_type = EXCLUDED.advertiser_type
      WHERE l.advertiser_type <> EXCLUDED.advertiser_type
    ), cleared AS (
      DELETE FROM labels l
      USING final f
      WHERE l.advertiser_name = f.advertiser_name AND f.advertiser_type IS NULL
    )
    SELECT CASE
             WHEN advertiser_type IS NOT DISTINCT FROM type_before THEN 'unchanged'
             WHEN type_before IS NULL THEN 'new'
             ELSE 'updated'
           END AS status,
           count(*)::integer AS count
    FROM classified
    GROUP BY 1`;
  return { counts: countStatuses(statuses), rejects: [] };
}
