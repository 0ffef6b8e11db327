// The API key lives in this tab's session storage only: it is gone when the tab closes or on sign-out.
const KEY = 'console.apiKey';

export const session = {
  key: () => sessionStorage.getItem(KEY),
  signIn: (apiKey) => sessionStorage.setItem(KEY, apiKey),
  signOut: () => sessionStorage.removeItem(KEY),
};
