import './assets/index.ts-DMUFFBpr.js';
