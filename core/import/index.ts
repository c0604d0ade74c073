/** CSV import: the public surface used by server/routes/import.ts and the CLI's types. */
export { IMPORT_LIMIT_BYTES, detectDelimiter } from './csv-source.ts';
export { BATCH_SIZE } from './batches.ts';
export { ImportJobStore, HEARTBEAT_STALE_SECONDS, type JobRecord, type ListedJob, type SavedMapping } from './job-store.ts';
export { DEFAULT_JOB_LIST_SIZE, MAX_JOB_LIST_SIZE, jobListItem, readJobListQuery } from './job-list.ts';
export { optionsOfJob, prepareImport, type ImportContext, type ImportEvent, type ImportObserver, type PreparedImport } from './job.ts';
export { readImportOptions, type ImportOptions, type ImportQuery } from './options.ts';
export { jobBody, rejectionsCsv, reportBody } from './report.ts';
export { checkDeletable, readNewMapping, visibleTo } from './saved-mappings.ts';
export { advisoryLease, singleProcessLease, type OwnerLease } from './owner-lease.ts';
