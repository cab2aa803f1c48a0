// The knowledge base the demo starts with (the seed's enterprise KB): a few Markdown documents under file:///docs/ and
// article rows behind postgres://kb/articles/{id}. Plain data; kb-store.ts owns the live copies and their revisions.

export interface SeedDocument {
  uri: string;
  name: string;
  title: string;
  mimeType: string;
  /** The body before any edit; edits append a revision line (see kb-store.ts). */
  body: string;
}

export interface SeedArticle {
  id: number;
  title: string;
  body: string;
}

export const DOCS_PREFIX = 'file:///docs/';
export const LISTING_URI = 'file:///docs/';
export const SCHEMA_URI = 'postgres://kb/articles/schema';
export const ARTICLE_TEMPLATE = 'postgres://kb/articles/{id}';
export const articleUri = (id: number): string => `postgres://kb/articles/${id}`;

export const SEED_DOCUMENTS: readonly SeedDocument[] = [
  {
    uri: 'file:///docs/policy.md',
    name: 'policy.md',
    title: 'Remote work policy',
    mimeType: 'text/markdown',
    body: [
      '# Remote work policy',
      '',
      'Employees may work remotely up to three days a week.',
      'Core hours are 10:00–15:00 in the team\'s home time zone.',
      'Equipment requests go through the IT portal.',
    ].join('\n'),
  },
  {
    uri: 'file:///docs/onboarding.md',
    name: 'onboarding.md',
    title: 'Onboarding checklist',
    mimeType: 'text/markdown',
    body: [
      '# Onboarding checklist',
      '',
      '1. Collect your laptop and badge on day one.',
      '2. Enrol in single sign-on and set up two-factor authentication.',
      '3. Read the remote work policy and the security handbook.',
    ].join('\n'),
  },
  {
    uri: 'file:///docs/security.md',
    name: 'security.md',
    title: 'Security handbook',
    mimeType: 'text/markdown',
    body: [
      '# Security handbook',
      '',
      'Report suspected phishing to security@example.com.',
      'Lock your screen whenever you leave your desk.',
      'Customer data never leaves the production network.',
    ].join('\n'),
  },
  {
    uri: 'file:///docs/faq.md',
    name: 'faq.md',
    title: 'Frequently asked questions',
    mimeType: 'text/markdown',
    body: [
      '# FAQ',
      '',
      '**How do I reset my password?** Use the self-service portal.',
      '**Where are the meeting rooms?** Second floor, east wing.',
    ].join('\n'),
  },
];

export const SEED_ARTICLES: readonly SeedArticle[] = [
  { id: 101, title: 'Expense reports', body: 'Submit receipts within 30 days of purchase.' },
  { id: 102, title: 'Travel booking', body: 'Book flights through the travel desk at least two weeks ahead.' },
  { id: 103, title: 'Parental leave', body: 'Sixteen weeks of paid leave for every new parent.' },
];

/** The articles table as the schema resource describes it (row edits never change it: the seed's granularity trap). */
export const ARTICLES_SCHEMA = {
  table: 'kb.articles',
  columns: [
    { name: 'id', type: 'integer', primaryKey: true },
    { name: 'title', type: 'text' },
    { name: 'body', type: 'text' },
    { name: 'revision', type: 'integer' },
    { name: 'updated_at', type: 'timestamptz' },
  ],
};

/** Sentences the edit timer appends, so every revision reads differently. */
export const EDIT_NOTES: readonly string[] = [
  'Clarified who approves exceptions.',
  'Updated the contact address.',
  'Added an example for new starters.',
  'Fixed a typo reported by the help desk.',
  'Aligned wording with the legal review.',
  'Linked the related article.',
];
